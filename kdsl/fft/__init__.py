"""kd.fft (work in progress)."""
