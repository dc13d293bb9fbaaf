# cython: language_level=3
# The Ayoayo evaluation's weights: centi-seeds per unit of each
# feature of the kernel's FEATURE_NAMES, in that order (docs/search.md).
# Written by benchmarks/tune.py; the fits and the SPRTs that kept them
# are in docs/tuning.md.
#   python benchmarks/tune.py --variant ayoayo --games 2000 --seed 1 --nodes 2000 --opening-plies 6

cdef enum:
    EVAL_CAPTURED = 100
    EVAL_ROW_SEED = -7
    EVAL_MOBILITY = 57
    EVAL_KROO = 1
    EVAL_TEMPO = -52
