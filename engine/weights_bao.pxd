# cython: language_level=3
# The Bao la Kiswahili evaluation's weights: centi-seeds per unit of each
# feature of the kernel's FEATURE_NAMES, in that order (docs/search.md).
# Written by benchmarks/tune.py; the fits and the SPRTs that kept them
# are in docs/tuning.md.

cdef enum:
    BAO_SEED = 100
    BAO_FRONT_SEED = 12
    BAO_HAND_SEED = 15
    BAO_NYUMBA = 250
    BAO_OWNED_NYUMBA = 80
    BAO_MOBILITY = 6
    BAO_ATTACK = 60
    BAO_THREATENED = -30
