# cython: language_level=3
# The Bao la Kujifunza evaluation's weights: centi-seeds per unit of each
# feature of the kernel's FEATURE_NAMES, in that order (docs/search.md).
# Written by benchmarks/tune.py; the fits and the SPRTs that kept them
# are in docs/tuning.md.

cdef enum:
    KUJIFUNZA_SEED = 100
    KUJIFUNZA_FRONT_SEED = 12
    KUJIFUNZA_HAND_SEED = 15
    KUJIFUNZA_NYUMBA = 250
    KUJIFUNZA_OWNED_NYUMBA = 80
    KUJIFUNZA_MOBILITY = 6
    KUJIFUNZA_ATTACK = 60
    KUJIFUNZA_THREATENED = -30
