# cython: language_level=3
# The Kalah evaluation's weights: centi-seeds per unit of each
# feature of the kernel's FEATURE_NAMES, in that order (docs/search.md).
# Written by benchmarks/tune.py; the fits and the SPRTs that kept them
# are in docs/tuning.md.
#   python benchmarks/tune.py --variant kalah --games 3000 --seed 1 --nodes 2000 --opening-plies 6

cdef enum:
    EVAL_STORE = 100
    EVAL_ROW_SEED = 26
    EVAL_EXTRA_TURN = 256
    EVAL_CAPTURE = 50
    EVAL_THREAT_EXTRA_TURN = -126
    EVAL_THREAT = -28
    EVAL_TEMPO = 6
