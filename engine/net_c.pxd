# cython: language_level=3
"""The learned evaluation's integer inference, shared by the Oware and
Kalah kernels (a header: inline functions only, compiled into each
kernel, each holding its own NetWeights). engine/net.py is its Python
twin, the file format and the checks a network passes before it is
loaded.

The inputs are the 12 pits of a two-row board of six pits a side (the
side to move's row first) one-hot by seed count and the two sides' stores
(captures) one-hot; each input adds a row of ``w1`` to the hidden sums, a
hidden unit is its sum clipped to 0..NET_ONE, and the output is their dot
product with ``w2`` over NET_ONE x NET_OUT_SCALE, rounded down.
"""

cdef enum:
    NET_BUCKETS = 16
    NET_SCORE_BUCKETS = 26
    NET_INPUTS = 12 * NET_BUCKETS + 2 * NET_SCORE_BUCKETS
    NET_HIDDEN = 32
    NET_ONE = 256
    NET_OUT_SCALE = 16

ctypedef struct NetWeights:
    short w1[NET_INPUTS][NET_HIDDEN]
    int b1[NET_HIDDEN]
    short w2[NET_HIDDEN]
    int b2
    bint on  # a network is loaded (net_load)


cdef inline void net_add_row(short* acc, const short* row) noexcept nogil:
    # 16-bit sums (twice the lanes of 32-bit ones), added modulo 2^16: a
    # partial sum may wrap and come back, and the final one is exact, as
    # engine/net.py read_net refuses a network whose sums could leave 16 bits
    cdef int j
    for j in range(NET_HIDDEN):
        acc[j] = <short> (acc[j] + row[j])


cdef inline int net_bucket(int seeds, int buckets) noexcept nogil:
    return seeds if seeds < buckets else buckets - 1


cdef inline int net_output(const NetWeights* net, const unsigned char* own,
                           const unsigned char* opp, int own_score,
                           int opp_score) noexcept nogil:
    """The network's output in centi-seeds: ``own`` and ``opp`` the side
    to move's six pits and its opponent's, each in sowing order."""
    cdef short acc[NET_HIDDEN]
    cdef int i, j
    cdef short unit
    cdef int total = net.b2  # engine/net.py read_net: the output fits in 32 bits
    for j in range(NET_HIDDEN):
        acc[j] = <short> net.b1[j]
    for i in range(6):
        net_add_row(acc, net.w1[NET_BUCKETS * i + net_bucket(own[i], NET_BUCKETS)])
        net_add_row(acc, net.w1[NET_BUCKETS * (6 + i) + net_bucket(opp[i], NET_BUCKETS)])
    net_add_row(acc, net.w1[12 * NET_BUCKETS + net_bucket(own_score, NET_SCORE_BUCKETS)])
    net_add_row(acc, net.w1[12 * NET_BUCKETS + NET_SCORE_BUCKETS
                            + net_bucket(opp_score, NET_SCORE_BUCKETS)])
    for j in range(NET_HIDDEN):
        unit = acc[j]
        if unit > NET_ONE:
            unit = NET_ONE
        elif unit < 0:
            unit = 0
        total += <int> net.w2[j] * <int> unit
    # rounded down, as Python's // (the build divides as C does, towards 0)
    if total < 0:
        return -((-total + NET_ONE * NET_OUT_SCALE - 1) // (NET_ONE * NET_OUT_SCALE))
    return total // (NET_ONE * NET_OUT_SCALE)


cdef inline int net_two_rows(const NetWeights* net, const unsigned char* pits,
                             const unsigned char* scores, int turn) noexcept nogil:
    """``net_output`` of a board whose South row is ``pits[0..5]`` and
    North's ``pits[6..11]``, ``scores`` South's and North's, ``turn`` the
    side to move (0 South)."""
    return net_output(net, pits + 6 * turn, pits + 6 - 6 * turn, scores[turn], scores[1 - turn])


cdef inline int net_load(NetWeights* weights, object net) except -1:
    """Copy ``net`` (engine/net.Net, its shape that of NET_DIMS) into
    ``weights`` and turn it on, or turn it off (None). A network of another
    shape is refused (ValueError) and the one loaded stays."""
    cdef int i, j
    if net is None:
        weights.on = False
        return 0
    shape_ok = (len(net.w1) == NET_INPUTS and len(net.b1) == NET_HIDDEN
                and len(net.w2) == NET_HIDDEN)
    for row in net.w1:  # a loop: a generator in a header's inline function does not compile
        shape_ok = shape_ok and len(row) == NET_HIDDEN
    if not shape_ok:
        raise ValueError("the network's shape is not this kernel's")
    weights.on = False
    for i in range(NET_INPUTS):
        for j in range(NET_HIDDEN):
            weights.w1[i][j] = net.w1[i][j]
    for j in range(NET_HIDDEN):
        weights.b1[j] = net.b1[j]
        weights.w2[j] = net.w2[j]
    weights.b2 = net.b2
    weights.on = True
    return 0
