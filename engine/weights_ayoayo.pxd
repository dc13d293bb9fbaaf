# cython: language_level=3
# The Ayoayo evaluation's weights: centi-seeds per unit of each
# feature of the kernel's FEATURE_NAMES, in that order (docs/search.md).
# Written by benchmarks/tune.py; the fits and the SPRTs that kept them
# are in docs/tuning.md.

cdef enum:
    EVAL_CAPTURED = 100
    EVAL_ROW_SEED = 6
    EVAL_MOBILITY = 15
    EVAL_KROO = 0
    EVAL_TEMPO = 10
