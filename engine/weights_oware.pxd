# cython: language_level=3
# The Oware evaluation's weights: centi-seeds per unit of each
# feature of the kernel's FEATURE_NAMES, in that order (docs/search.md).
# Written by benchmarks/tune.py; the fits and the SPRTs that kept them
# are in docs/tuning.md.
#   python benchmarks/tune.py --variant oware --games 3000 --seed 1 --nodes 2000 --opening-plies 6

cdef enum:
    EVAL_CAPTURED = 100
    EVAL_ROW_SEED = 5
    EVAL_MOBILITY = 58
    EVAL_WEAK_PIT = 32
    EVAL_KROO = 52
    EVAL_HOME_MOVE = 58
    EVAL_THREAT = -42
    EVAL_TEMPO = -41
