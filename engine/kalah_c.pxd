# cython: language_level=3
"""The compiled Kalah state (_kalah.pyx), also read by the solver's
database probe (_kalahsolve.pyx): 32 bytes, South's pits 0..m-1 then
North's m..2m-1, each in sowing order. ``net`` is 1 where the kernel's
network evaluates the board (the board it was trained for, set by the
kernel's load; no move changes it)."""

ctypedef struct KalahState:
    unsigned char pits[24]
    unsigned char store[2]
    unsigned char turn
    unsigned char m
    unsigned char empty_capture
    unsigned char net
    unsigned char pad[2]
