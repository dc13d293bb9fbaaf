# cython: language_level=3
# The Kalah evaluation's weights: centi-seeds per unit of each
# feature of the kernel's FEATURE_NAMES, in that order (docs/search.md).
# Written by benchmarks/tune.py; the fits and the SPRTs that kept them
# are in docs/tuning.md.

cdef enum:
    EVAL_STORE = 100
    EVAL_ROW_SEED = 30
    EVAL_EXTRA_TURN = 60
    EVAL_CAPTURE = 50
    EVAL_THREAT_EXTRA_TURN = 0
    EVAL_THREAT = 0
    EVAL_TEMPO = 0
