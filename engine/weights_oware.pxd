# cython: language_level=3
# The Oware evaluation's weights (centi-seeds per unit of each feature of
# _oware.pyx's FEATURE_NAMES, in that order; docs/search.md explains each).
# Written by `python benchmarks/tune.py --variant oware --apply`; the fit
# that gave them is recorded in docs/tuning.md.

cdef enum:
    EVAL_CAPTURED = 100
    EVAL_ROW_SEED = 4
    EVAL_MOBILITY = 12
    EVAL_WEAK_PIT = -14
    EVAL_KROO = 45
    EVAL_HOME_MOVE = 0
    EVAL_THREAT = -27
    EVAL_TEMPO = 10
