# cython: language_level=3
# The Oware evaluation's weights: centi-seeds per unit of each
# feature of the kernel's FEATURE_NAMES, in that order (docs/search.md).
# Written by benchmarks/tune.py; the fits and the SPRTs that kept them
# are in docs/tuning.md.
#   python benchmarks/tune.py --variant oware --games 1500 --seed 2 --nodes 2000 --opening-plies 6

cdef enum:
    EVAL_CAPTURED = 100
    EVAL_ROW_SEED = 5
    EVAL_MOBILITY = 52
    EVAL_WEAK_PIT = 39
    EVAL_KROO = 67
    EVAL_HOME_MOVE = 62
    EVAL_THREAT = -24
    EVAL_TEMPO = -40
