# cython: language_level=3
# The Bao la Kiswahili evaluation's weights: centi-seeds per unit of each
# feature of the kernel's FEATURE_NAMES, in that order (docs/search.md).
# Written by benchmarks/tune.py; the fits and the SPRTs that kept them
# are in docs/tuning.md.
#   python benchmarks/tune.py --variant bao --games 1000 --seed 1 --nodes 2000 --opening-plies 6

cdef enum:
    BAO_SEED = 100
    BAO_FRONT_SEED = -57
    BAO_HAND_SEED = 29
    BAO_NYUMBA = 212
    BAO_OWNED_NYUMBA = 78
    BAO_MOBILITY = 151
    BAO_ATTACK = 100
    BAO_THREATENED = 3
