package io.dta.dpdk.ffi;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SequenceLayout;
import java.lang.foreign.ValueLayout.OfLong;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;

/**
 * {@code struct rte_eth_stats}: basic port statistics filled by {@code rte_eth_stats_get}.
 * <p>
 * Hand-written in jextract's style (a {@code layout()} plus {@code field$layout()}, {@code field$offset()},
 * getter and setter per field); {@code LayoutAgreementTest} checks every offset against {@link DpdkLayout},
 * which a C probe generates from the installed headers.
 */
@SuppressWarnings({ "checkstyle:MethodName", "checkstyle:TypeName" })
public final class rte_eth_stats
{
    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
        dpdk_h.C_LONG_LONG.withName("ipackets"),
        dpdk_h.C_LONG_LONG.withName("opackets"),
        dpdk_h.C_LONG_LONG.withName("ibytes"),
        dpdk_h.C_LONG_LONG.withName("obytes"),
        dpdk_h.C_LONG_LONG.withName("imissed"),
        dpdk_h.C_LONG_LONG.withName("ierrors"),
        dpdk_h.C_LONG_LONG.withName("oerrors"),
        dpdk_h.C_LONG_LONG.withName("rx_nombuf"),
        MemoryLayout.sequenceLayout(16, dpdk_h.C_LONG_LONG).withName("q_ipackets"),
        MemoryLayout.sequenceLayout(16, dpdk_h.C_LONG_LONG).withName("q_opackets"),
        MemoryLayout.sequenceLayout(16, dpdk_h.C_LONG_LONG).withName("q_ibytes"),
        MemoryLayout.sequenceLayout(16, dpdk_h.C_LONG_LONG).withName("q_obytes"),
        MemoryLayout.sequenceLayout(16, dpdk_h.C_LONG_LONG).withName("q_errors")).withName("rte_eth_stats");

    private rte_eth_stats()
    {
    }

    /**
     * @return the layout of {@code struct rte_eth_stats}.
     */
    public static GroupLayout layout()
    {
        return $LAYOUT;
    }

    private static final OfLong ipackets$LAYOUT = (OfLong)$LAYOUT.select(groupElement("ipackets"));
    private static final long ipackets$OFFSET = $LAYOUT.byteOffset(groupElement("ipackets"));

    /**
     * @return the layout of field {@code ipackets}.
     */
    public static OfLong ipackets$layout()
    {
        return ipackets$LAYOUT;
    }

    /**
     * @return the offset of field {@code ipackets}.
     */
    public static long ipackets$offset()
    {
        return ipackets$OFFSET;
    }

    /**
     * @param struct the struct.
     * @return field {@code ipackets}.
     */
    public static long ipackets(final MemorySegment struct)
    {
        return struct.get(ipackets$LAYOUT, ipackets$OFFSET);
    }

    /**
     * @param struct     the struct.
     * @param fieldValue new value of field {@code ipackets}.
     */
    public static void ipackets(final MemorySegment struct, final long fieldValue)
    {
        struct.set(ipackets$LAYOUT, ipackets$OFFSET, fieldValue);
    }

    private static final OfLong opackets$LAYOUT = (OfLong)$LAYOUT.select(groupElement("opackets"));
    private static final long opackets$OFFSET = $LAYOUT.byteOffset(groupElement("opackets"));

    /**
     * @return the layout of field {@code opackets}.
     */
    public static OfLong opackets$layout()
    {
        return opackets$LAYOUT;
    }

    /**
     * @return the offset of field {@code opackets}.
     */
    public static long opackets$offset()
    {
        return opackets$OFFSET;
    }

    /**
     * @param struct the struct.
     * @return field {@code opackets}.
     */
    public static long opackets(final MemorySegment struct)
    {
        return struct.get(opackets$LAYOUT, opackets$OFFSET);
    }

    /**
     * @param struct     the struct.
     * @param fieldValue new value of field {@code opackets}.
     */
    public static void opackets(final MemorySegment struct, final long fieldValue)
    {
        struct.set(opackets$LAYOUT, opackets$OFFSET, fieldValue);
    }

    private static final OfLong ibytes$LAYOUT = (OfLong)$LAYOUT.select(groupElement("ibytes"));
    private static final long ibytes$OFFSET = $LAYOUT.byteOffset(groupElement("ibytes"));

    /**
     * @return the layout of field {@code ibytes}.
     */
    public static OfLong ibytes$layout()
    {
        return ibytes$LAYOUT;
    }

    /**
     * @return the offset of field {@code ibytes}.
     */
    public static long ibytes$offset()
    {
        return ibytes$OFFSET;
    }

    /**
     * @param struct the struct.
     * @return field {@code ibytes}.
     */
    public static long ibytes(final MemorySegment struct)
    {
        return struct.get(ibytes$LAYOUT, ibytes$OFFSET);
    }

    /**
     * @param struct     the struct.
     * @param fieldValue new value of field {@code ibytes}.
     */
    public static void ibytes(final MemorySegment struct, final long fieldValue)
    {
        struct.set(ibytes$LAYOUT, ibytes$OFFSET, fieldValue);
    }

    private static final OfLong obytes$LAYOUT = (OfLong)$LAYOUT.select(groupElement("obytes"));
    private static final long obytes$OFFSET = $LAYOUT.byteOffset(groupElement("obytes"));

    /**
     * @return the layout of field {@code obytes}.
     */
    public static OfLong obytes$layout()
    {
        return obytes$LAYOUT;
    }

    /**
     * @return the offset of field {@code obytes}.
     */
    public static long obytes$offset()
    {
        return obytes$OFFSET;
    }

    /**
     * @param struct the struct.
     * @return field {@code obytes}.
     */
    public static long obytes(final MemorySegment struct)
    {
        return struct.get(obytes$LAYOUT, obytes$OFFSET);
    }

    /**
     * @param struct     the struct.
     * @param fieldValue new value of field {@code obytes}.
     */
    public static void obytes(final MemorySegment struct, final long fieldValue)
    {
        struct.set(obytes$LAYOUT, obytes$OFFSET, fieldValue);
    }

    private static final OfLong imissed$LAYOUT = (OfLong)$LAYOUT.select(groupElement("imissed"));
    private static final long imissed$OFFSET = $LAYOUT.byteOffset(groupElement("imissed"));

    /**
     * @return the layout of field {@code imissed}.
     */
    public static OfLong imissed$layout()
    {
        return imissed$LAYOUT;
    }

    /**
     * @return the offset of field {@code imissed}.
     */
    public static long imissed$offset()
    {
        return imissed$OFFSET;
    }

    /**
     * @param struct the struct.
     * @return field {@code imissed}.
     */
    public static long imissed(final MemorySegment struct)
    {
        return struct.get(imissed$LAYOUT, imissed$OFFSET);
    }

    /**
     * @param struct     the struct.
     * @param fieldValue new value of field {@code imissed}.
     */
    public static void imissed(final MemorySegment struct, final long fieldValue)
    {
        struct.set(imissed$LAYOUT, imissed$OFFSET, fieldValue);
    }

    private static final OfLong ierrors$LAYOUT = (OfLong)$LAYOUT.select(groupElement("ierrors"));
    private static final long ierrors$OFFSET = $LAYOUT.byteOffset(groupElement("ierrors"));

    /**
     * @return the layout of field {@code ierrors}.
     */
    public static OfLong ierrors$layout()
    {
        return ierrors$LAYOUT;
    }

    /**
     * @return the offset of field {@code ierrors}.
     */
    public static long ierrors$offset()
    {
        return ierrors$OFFSET;
    }

    /**
     * @param struct the struct.
     * @return field {@code ierrors}.
     */
    public static long ierrors(final MemorySegment struct)
    {
        return struct.get(ierrors$LAYOUT, ierrors$OFFSET);
    }

    /**
     * @param struct     the struct.
     * @param fieldValue new value of field {@code ierrors}.
     */
    public static void ierrors(final MemorySegment struct, final long fieldValue)
    {
        struct.set(ierrors$LAYOUT, ierrors$OFFSET, fieldValue);
    }

    private static final OfLong oerrors$LAYOUT = (OfLong)$LAYOUT.select(groupElement("oerrors"));
    private static final long oerrors$OFFSET = $LAYOUT.byteOffset(groupElement("oerrors"));

    /**
     * @return the layout of field {@code oerrors}.
     */
    public static OfLong oerrors$layout()
    {
        return oerrors$LAYOUT;
    }

    /**
     * @return the offset of field {@code oerrors}.
     */
    public static long oerrors$offset()
    {
        return oerrors$OFFSET;
    }

    /**
     * @param struct the struct.
     * @return field {@code oerrors}.
     */
    public static long oerrors(final MemorySegment struct)
    {
        return struct.get(oerrors$LAYOUT, oerrors$OFFSET);
    }

    /**
     * @param struct     the struct.
     * @param fieldValue new value of field {@code oerrors}.
     */
    public static void oerrors(final MemorySegment struct, final long fieldValue)
    {
        struct.set(oerrors$LAYOUT, oerrors$OFFSET, fieldValue);
    }

    private static final OfLong rx_nombuf$LAYOUT = (OfLong)$LAYOUT.select(groupElement("rx_nombuf"));
    private static final long rx_nombuf$OFFSET = $LAYOUT.byteOffset(groupElement("rx_nombuf"));

    /**
     * @return the layout of field {@code rx_nombuf}.
     */
    public static OfLong rx_nombuf$layout()
    {
        return rx_nombuf$LAYOUT;
    }

    /**
     * @return the offset of field {@code rx_nombuf}.
     */
    public static long rx_nombuf$offset()
    {
        return rx_nombuf$OFFSET;
    }

    /**
     * @param struct the struct.
     * @return field {@code rx_nombuf}.
     */
    public static long rx_nombuf(final MemorySegment struct)
    {
        return struct.get(rx_nombuf$LAYOUT, rx_nombuf$OFFSET);
    }

    /**
     * @param struct     the struct.
     * @param fieldValue new value of field {@code rx_nombuf}.
     */
    public static void rx_nombuf(final MemorySegment struct, final long fieldValue)
    {
        struct.set(rx_nombuf$LAYOUT, rx_nombuf$OFFSET, fieldValue);
    }

    private static final SequenceLayout q_ipackets$LAYOUT = (SequenceLayout)$LAYOUT.select(groupElement("q_ipackets"));
    private static final long q_ipackets$OFFSET = $LAYOUT.byteOffset(groupElement("q_ipackets"));

    /**
     * @return the layout of field {@code q_ipackets}.
     */
    public static SequenceLayout q_ipackets$layout()
    {
        return q_ipackets$LAYOUT;
    }

    /**
     * @return the offset of field {@code q_ipackets}.
     */
    public static long q_ipackets$offset()
    {
        return q_ipackets$OFFSET;
    }

    /**
     * @param struct the struct.
     * @param index  element index.
     * @return element {@code index} of {@code q_ipackets}.
     */
    public static long q_ipackets(final MemorySegment struct, final long index)
    {
        return struct.get(dpdk_h.C_LONG_LONG, q_ipackets$OFFSET + index * dpdk_h.C_LONG_LONG.byteSize());
    }

    private static final SequenceLayout q_opackets$LAYOUT = (SequenceLayout)$LAYOUT.select(groupElement("q_opackets"));
    private static final long q_opackets$OFFSET = $LAYOUT.byteOffset(groupElement("q_opackets"));

    /**
     * @return the layout of field {@code q_opackets}.
     */
    public static SequenceLayout q_opackets$layout()
    {
        return q_opackets$LAYOUT;
    }

    /**
     * @return the offset of field {@code q_opackets}.
     */
    public static long q_opackets$offset()
    {
        return q_opackets$OFFSET;
    }

    /**
     * @param struct the struct.
     * @param index  element index.
     * @return element {@code index} of {@code q_opackets}.
     */
    public static long q_opackets(final MemorySegment struct, final long index)
    {
        return struct.get(dpdk_h.C_LONG_LONG, q_opackets$OFFSET + index * dpdk_h.C_LONG_LONG.byteSize());
    }

    private static final SequenceLayout q_ibytes$LAYOUT = (SequenceLayout)$LAYOUT.select(groupElement("q_ibytes"));
    private static final long q_ibytes$OFFSET = $LAYOUT.byteOffset(groupElement("q_ibytes"));

    /**
     * @return the layout of field {@code q_ibytes}.
     */
    public static SequenceLayout q_ibytes$layout()
    {
        return q_ibytes$LAYOUT;
    }

    /**
     * @return the offset of field {@code q_ibytes}.
     */
    public static long q_ibytes$offset()
    {
        return q_ibytes$OFFSET;
    }

    /**
     * @param struct the struct.
     * @param index  element index.
     * @return element {@code index} of {@code q_ibytes}.
     */
    public static long q_ibytes(final MemorySegment struct, final long index)
    {
        return struct.get(dpdk_h.C_LONG_LONG, q_ibytes$OFFSET + index * dpdk_h.C_LONG_LONG.byteSize());
    }

    private static final SequenceLayout q_obytes$LAYOUT = (SequenceLayout)$LAYOUT.select(groupElement("q_obytes"));
    private static final long q_obytes$OFFSET = $LAYOUT.byteOffset(groupElement("q_obytes"));

    /**
     * @return the layout of field {@code q_obytes}.
     */
    public static SequenceLayout q_obytes$layout()
    {
        return q_obytes$LAYOUT;
    }

    /**
     * @return the offset of field {@code q_obytes}.
     */
    public static long q_obytes$offset()
    {
        return q_obytes$OFFSET;
    }

    /**
     * @param struct the struct.
     * @param index  element index.
     * @return element {@code index} of {@code q_obytes}.
     */
    public static long q_obytes(final MemorySegment struct, final long index)
    {
        return struct.get(dpdk_h.C_LONG_LONG, q_obytes$OFFSET + index * dpdk_h.C_LONG_LONG.byteSize());
    }

    private static final SequenceLayout q_errors$LAYOUT = (SequenceLayout)$LAYOUT.select(groupElement("q_errors"));
    private static final long q_errors$OFFSET = $LAYOUT.byteOffset(groupElement("q_errors"));

    /**
     * @return the layout of field {@code q_errors}.
     */
    public static SequenceLayout q_errors$layout()
    {
        return q_errors$LAYOUT;
    }

    /**
     * @return the offset of field {@code q_errors}.
     */
    public static long q_errors$offset()
    {
        return q_errors$OFFSET;
    }

    /**
     * @param struct the struct.
     * @param index  element index.
     * @return element {@code index} of {@code q_errors}.
     */
    public static long q_errors(final MemorySegment struct, final long index)
    {
        return struct.get(dpdk_h.C_LONG_LONG, q_errors$OFFSET + index * dpdk_h.C_LONG_LONG.byteSize());
    }
}
