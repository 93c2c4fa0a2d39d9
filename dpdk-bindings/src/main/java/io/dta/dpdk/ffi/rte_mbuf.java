package io.dta.dpdk.ffi;

import java.lang.foreign.AddressLayout;
import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SequenceLayout;
import java.lang.foreign.ValueLayout.OfInt;
import java.lang.foreign.ValueLayout.OfLong;
import java.lang.foreign.ValueLayout.OfShort;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;

/**
 * {@code struct rte_mbuf}: the packet buffer descriptor (both cache lines; the fields this project does not use are padding).
 * <p>
 * Hand-written in jextract's style (a {@code layout()} plus {@code field$layout()}, {@code field$offset()},
 * getter and setter per field); {@code LayoutAgreementTest} checks every offset against {@link DpdkLayout},
 * which a C probe generates from the installed headers.
 */
@SuppressWarnings({ "checkstyle:MethodName", "checkstyle:TypeName" })
public final class rte_mbuf
{
    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
        dpdk_h.C_POINTER.withName("buf_addr"),
        dpdk_h.C_LONG_LONG.withName("buf_iova"),
        dpdk_h.C_SHORT.withName("data_off"),
        dpdk_h.C_SHORT.withName("refcnt"),
        dpdk_h.C_SHORT.withName("nb_segs"),
        dpdk_h.C_SHORT.withName("port"),
        dpdk_h.C_LONG_LONG.withName("ol_flags"),
        dpdk_h.C_INT.withName("packet_type"),
        dpdk_h.C_INT.withName("pkt_len"),
        dpdk_h.C_SHORT.withName("data_len"),
        dpdk_h.C_SHORT.withName("vlan_tci"),
        MemoryLayout.paddingLayout(8),
        dpdk_h.C_SHORT.withName("vlan_tci_outer"),
        dpdk_h.C_SHORT.withName("buf_len"),
        dpdk_h.C_POINTER.withName("pool"),
        dpdk_h.C_POINTER.withName("next"),
        dpdk_h.C_LONG_LONG.withName("tx_offload"),
        dpdk_h.C_POINTER.withName("shinfo"),
        dpdk_h.C_SHORT.withName("priv_size"),
        dpdk_h.C_SHORT.withName("timesync"),
        MemoryLayout.sequenceLayout(9, dpdk_h.C_INT).withName("dynfield1")).withName("rte_mbuf");

    private rte_mbuf()
    {
    }

    /**
     * @return the layout of {@code struct rte_mbuf}.
     */
    public static GroupLayout layout()
    {
        return $LAYOUT;
    }

    private static final AddressLayout buf_addr$LAYOUT = (AddressLayout)$LAYOUT.select(groupElement("buf_addr"));
    private static final long buf_addr$OFFSET = $LAYOUT.byteOffset(groupElement("buf_addr"));

    /**
     * @return the layout of field {@code buf_addr}.
     */
    public static AddressLayout buf_addr$layout()
    {
        return buf_addr$LAYOUT;
    }

    /**
     * @return the offset of field {@code buf_addr}.
     */
    public static long buf_addr$offset()
    {
        return buf_addr$OFFSET;
    }

    /**
     * @param struct the struct.
     * @return field {@code buf_addr}.
     */
    public static MemorySegment buf_addr(final MemorySegment struct)
    {
        return struct.get(buf_addr$LAYOUT, buf_addr$OFFSET);
    }

    /**
     * @param struct     the struct.
     * @param fieldValue new value of field {@code buf_addr}.
     */
    public static void buf_addr(final MemorySegment struct, final MemorySegment fieldValue)
    {
        struct.set(buf_addr$LAYOUT, buf_addr$OFFSET, fieldValue);
    }

    private static final OfLong buf_iova$LAYOUT = (OfLong)$LAYOUT.select(groupElement("buf_iova"));
    private static final long buf_iova$OFFSET = $LAYOUT.byteOffset(groupElement("buf_iova"));

    /**
     * @return the layout of field {@code buf_iova}.
     */
    public static OfLong buf_iova$layout()
    {
        return buf_iova$LAYOUT;
    }

    /**
     * @return the offset of field {@code buf_iova}.
     */
    public static long buf_iova$offset()
    {
        return buf_iova$OFFSET;
    }

    /**
     * @param struct the struct.
     * @return field {@code buf_iova}.
     */
    public static long buf_iova(final MemorySegment struct)
    {
        return struct.get(buf_iova$LAYOUT, buf_iova$OFFSET);
    }

    /**
     * @param struct     the struct.
     * @param fieldValue new value of field {@code buf_iova}.
     */
    public static void buf_iova(final MemorySegment struct, final long fieldValue)
    {
        struct.set(buf_iova$LAYOUT, buf_iova$OFFSET, fieldValue);
    }

    private static final OfShort data_off$LAYOUT = (OfShort)$LAYOUT.select(groupElement("data_off"));
    private static final long data_off$OFFSET = $LAYOUT.byteOffset(groupElement("data_off"));

    /**
     * @return the layout of field {@code data_off}.
     */
    public static OfShort data_off$layout()
    {
        return data_off$LAYOUT;
    }

    /**
     * @return the offset of field {@code data_off}.
     */
    public static long data_off$offset()
    {
        return data_off$OFFSET;
    }

    /**
     * @param struct the struct.
     * @return field {@code data_off}.
     */
    public static short data_off(final MemorySegment struct)
    {
        return struct.get(data_off$LAYOUT, data_off$OFFSET);
    }

    /**
     * @param struct     the struct.
     * @param fieldValue new value of field {@code data_off}.
     */
    public static void data_off(final MemorySegment struct, final short fieldValue)
    {
        struct.set(data_off$LAYOUT, data_off$OFFSET, fieldValue);
    }

    private static final OfShort refcnt$LAYOUT = (OfShort)$LAYOUT.select(groupElement("refcnt"));
    private static final long refcnt$OFFSET = $LAYOUT.byteOffset(groupElement("refcnt"));

    /**
     * @return the layout of field {@code refcnt}.
     */
    public static OfShort refcnt$layout()
    {
        return refcnt$LAYOUT;
    }

    /**
     * @return the offset of field {@code refcnt}.
     */
    public static long refcnt$offset()
    {
        return refcnt$OFFSET;
    }

    /**
     * @param struct the struct.
     * @return field {@code refcnt}.
     */
    public static short refcnt(final MemorySegment struct)
    {
        return struct.get(refcnt$LAYOUT, refcnt$OFFSET);
    }

    /**
     * @param struct     the struct.
     * @param fieldValue new value of field {@code refcnt}.
     */
    public static void refcnt(final MemorySegment struct, final short fieldValue)
    {
        struct.set(refcnt$LAYOUT, refcnt$OFFSET, fieldValue);
    }

    private static final OfShort nb_segs$LAYOUT = (OfShort)$LAYOUT.select(groupElement("nb_segs"));
    private static final long nb_segs$OFFSET = $LAYOUT.byteOffset(groupElement("nb_segs"));

    /**
     * @return the layout of field {@code nb_segs}.
     */
    public static OfShort nb_segs$layout()
    {
        return nb_segs$LAYOUT;
    }

    /**
     * @return the offset of field {@code nb_segs}.
     */
    public static long nb_segs$offset()
    {
        return nb_segs$OFFSET;
    }

    /**
     * @param struct the struct.
     * @return field {@code nb_segs}.
     */
    public static short nb_segs(final MemorySegment struct)
    {
        return struct.get(nb_segs$LAYOUT, nb_segs$OFFSET);
    }

    /**
     * @param struct     the struct.
     * @param fieldValue new value of field {@code nb_segs}.
     */
    public static void nb_segs(final MemorySegment struct, final short fieldValue)
    {
        struct.set(nb_segs$LAYOUT, nb_segs$OFFSET, fieldValue);
    }

    private static final OfShort port$LAYOUT = (OfShort)$LAYOUT.select(groupElement("port"));
    private static final long port$OFFSET = $LAYOUT.byteOffset(groupElement("port"));

    /**
     * @return the layout of field {@code port}.
     */
    public static OfShort port$layout()
    {
        return port$LAYOUT;
    }

    /**
     * @return the offset of field {@code port}.
     */
    public static long port$offset()
    {
        return port$OFFSET;
    }

    /**
     * @param struct the struct.
     * @return field {@code port}.
     */
    public static short port(final MemorySegment struct)
    {
        return struct.get(port$LAYOUT, port$OFFSET);
    }

    /**
     * @param struct     the struct.
     * @param fieldValue new value of field {@code port}.
     */
    public static void port(final MemorySegment struct, final short fieldValue)
    {
        struct.set(port$LAYOUT, port$OFFSET, fieldValue);
    }

    private static final OfLong ol_flags$LAYOUT = (OfLong)$LAYOUT.select(groupElement("ol_flags"));
    private static final long ol_flags$OFFSET = $LAYOUT.byteOffset(groupElement("ol_flags"));

    /**
     * @return the layout of field {@code ol_flags}.
     */
    public static OfLong ol_flags$layout()
    {
        return ol_flags$LAYOUT;
    }

    /**
     * @return the offset of field {@code ol_flags}.
     */
    public static long ol_flags$offset()
    {
        return ol_flags$OFFSET;
    }

    /**
     * @param struct the struct.
     * @return field {@code ol_flags}.
     */
    public static long ol_flags(final MemorySegment struct)
    {
        return struct.get(ol_flags$LAYOUT, ol_flags$OFFSET);
    }

    /**
     * @param struct     the struct.
     * @param fieldValue new value of field {@code ol_flags}.
     */
    public static void ol_flags(final MemorySegment struct, final long fieldValue)
    {
        struct.set(ol_flags$LAYOUT, ol_flags$OFFSET, fieldValue);
    }

    private static final OfInt packet_type$LAYOUT = (OfInt)$LAYOUT.select(groupElement("packet_type"));
    private static final long packet_type$OFFSET = $LAYOUT.byteOffset(groupElement("packet_type"));

    /**
     * @return the layout of field {@code packet_type}.
     */
    public static OfInt packet_type$layout()
    {
        return packet_type$LAYOUT;
    }

    /**
     * @return the offset of field {@code packet_type}.
     */
    public static long packet_type$offset()
    {
        return packet_type$OFFSET;
    }

    /**
     * @param struct the struct.
     * @return field {@code packet_type}.
     */
    public static int packet_type(final MemorySegment struct)
    {
        return struct.get(packet_type$LAYOUT, packet_type$OFFSET);
    }

    /**
     * @param struct     the struct.
     * @param fieldValue new value of field {@code packet_type}.
     */
    public static void packet_type(final MemorySegment struct, final int fieldValue)
    {
        struct.set(packet_type$LAYOUT, packet_type$OFFSET, fieldValue);
    }

    private static final OfInt pkt_len$LAYOUT = (OfInt)$LAYOUT.select(groupElement("pkt_len"));
    private static final long pkt_len$OFFSET = $LAYOUT.byteOffset(groupElement("pkt_len"));

    /**
     * @return the layout of field {@code pkt_len}.
     */
    public static OfInt pkt_len$layout()
    {
        return pkt_len$LAYOUT;
    }

    /**
     * @return the offset of field {@code pkt_len}.
     */
    public static long pkt_len$offset()
    {
        return pkt_len$OFFSET;
    }

    /**
     * @param struct the struct.
     * @return field {@code pkt_len}.
     */
    public static int pkt_len(final MemorySegment struct)
    {
        return struct.get(pkt_len$LAYOUT, pkt_len$OFFSET);
    }

    /**
     * @param struct     the struct.
     * @param fieldValue new value of field {@code pkt_len}.
     */
    public static void pkt_len(final MemorySegment struct, final int fieldValue)
    {
        struct.set(pkt_len$LAYOUT, pkt_len$OFFSET, fieldValue);
    }

    private static final OfShort data_len$LAYOUT = (OfShort)$LAYOUT.select(groupElement("data_len"));
    private static final long data_len$OFFSET = $LAYOUT.byteOffset(groupElement("data_len"));

    /**
     * @return the layout of field {@code data_len}.
     */
    public static OfShort data_len$layout()
    {
        return data_len$LAYOUT;
    }

    /**
     * @return the offset of field {@code data_len}.
     */
    public static long data_len$offset()
    {
        return data_len$OFFSET;
    }

    /**
     * @param struct the struct.
     * @return field {@code data_len}.
     */
    public static short data_len(final MemorySegment struct)
    {
        return struct.get(data_len$LAYOUT, data_len$OFFSET);
    }

    /**
     * @param struct     the struct.
     * @param fieldValue new value of field {@code data_len}.
     */
    public static void data_len(final MemorySegment struct, final short fieldValue)
    {
        struct.set(data_len$LAYOUT, data_len$OFFSET, fieldValue);
    }

    private static final OfShort vlan_tci$LAYOUT = (OfShort)$LAYOUT.select(groupElement("vlan_tci"));
    private static final long vlan_tci$OFFSET = $LAYOUT.byteOffset(groupElement("vlan_tci"));

    /**
     * @return the layout of field {@code vlan_tci}.
     */
    public static OfShort vlan_tci$layout()
    {
        return vlan_tci$LAYOUT;
    }

    /**
     * @return the offset of field {@code vlan_tci}.
     */
    public static long vlan_tci$offset()
    {
        return vlan_tci$OFFSET;
    }

    /**
     * @param struct the struct.
     * @return field {@code vlan_tci}.
     */
    public static short vlan_tci(final MemorySegment struct)
    {
        return struct.get(vlan_tci$LAYOUT, vlan_tci$OFFSET);
    }

    /**
     * @param struct     the struct.
     * @param fieldValue new value of field {@code vlan_tci}.
     */
    public static void vlan_tci(final MemorySegment struct, final short fieldValue)
    {
        struct.set(vlan_tci$LAYOUT, vlan_tci$OFFSET, fieldValue);
    }

    private static final OfShort vlan_tci_outer$LAYOUT = (OfShort)$LAYOUT.select(groupElement("vlan_tci_outer"));
    private static final long vlan_tci_outer$OFFSET = $LAYOUT.byteOffset(groupElement("vlan_tci_outer"));

    /**
     * @return the layout of field {@code vlan_tci_outer}.
     */
    public static OfShort vlan_tci_outer$layout()
    {
        return vlan_tci_outer$LAYOUT;
    }

    /**
     * @return the offset of field {@code vlan_tci_outer}.
     */
    public static long vlan_tci_outer$offset()
    {
        return vlan_tci_outer$OFFSET;
    }

    /**
     * @param struct the struct.
     * @return field {@code vlan_tci_outer}.
     */
    public static short vlan_tci_outer(final MemorySegment struct)
    {
        return struct.get(vlan_tci_outer$LAYOUT, vlan_tci_outer$OFFSET);
    }

    /**
     * @param struct     the struct.
     * @param fieldValue new value of field {@code vlan_tci_outer}.
     */
    public static void vlan_tci_outer(final MemorySegment struct, final short fieldValue)
    {
        struct.set(vlan_tci_outer$LAYOUT, vlan_tci_outer$OFFSET, fieldValue);
    }

    private static final OfShort buf_len$LAYOUT = (OfShort)$LAYOUT.select(groupElement("buf_len"));
    private static final long buf_len$OFFSET = $LAYOUT.byteOffset(groupElement("buf_len"));

    /**
     * @return the layout of field {@code buf_len}.
     */
    public static OfShort buf_len$layout()
    {
        return buf_len$LAYOUT;
    }

    /**
     * @return the offset of field {@code buf_len}.
     */
    public static long buf_len$offset()
    {
        return buf_len$OFFSET;
    }

    /**
     * @param struct the struct.
     * @return field {@code buf_len}.
     */
    public static short buf_len(final MemorySegment struct)
    {
        return struct.get(buf_len$LAYOUT, buf_len$OFFSET);
    }

    /**
     * @param struct     the struct.
     * @param fieldValue new value of field {@code buf_len}.
     */
    public static void buf_len(final MemorySegment struct, final short fieldValue)
    {
        struct.set(buf_len$LAYOUT, buf_len$OFFSET, fieldValue);
    }

    private static final AddressLayout pool$LAYOUT = (AddressLayout)$LAYOUT.select(groupElement("pool"));
    private static final long pool$OFFSET = $LAYOUT.byteOffset(groupElement("pool"));

    /**
     * @return the layout of field {@code pool}.
     */
    public static AddressLayout pool$layout()
    {
        return pool$LAYOUT;
    }

    /**
     * @return the offset of field {@code pool}.
     */
    public static long pool$offset()
    {
        return pool$OFFSET;
    }

    /**
     * @param struct the struct.
     * @return field {@code pool}.
     */
    public static MemorySegment pool(final MemorySegment struct)
    {
        return struct.get(pool$LAYOUT, pool$OFFSET);
    }

    /**
     * @param struct     the struct.
     * @param fieldValue new value of field {@code pool}.
     */
    public static void pool(final MemorySegment struct, final MemorySegment fieldValue)
    {
        struct.set(pool$LAYOUT, pool$OFFSET, fieldValue);
    }

    private static final AddressLayout next$LAYOUT = (AddressLayout)$LAYOUT.select(groupElement("next"));
    private static final long next$OFFSET = $LAYOUT.byteOffset(groupElement("next"));

    /**
     * @return the layout of field {@code next}.
     */
    public static AddressLayout next$layout()
    {
        return next$LAYOUT;
    }

    /**
     * @return the offset of field {@code next}.
     */
    public static long next$offset()
    {
        return next$OFFSET;
    }

    /**
     * @param struct the struct.
     * @return field {@code next}.
     */
    public static MemorySegment next(final MemorySegment struct)
    {
        return struct.get(next$LAYOUT, next$OFFSET);
    }

    /**
     * @param struct     the struct.
     * @param fieldValue new value of field {@code next}.
     */
    public static void next(final MemorySegment struct, final MemorySegment fieldValue)
    {
        struct.set(next$LAYOUT, next$OFFSET, fieldValue);
    }

    private static final OfLong tx_offload$LAYOUT = (OfLong)$LAYOUT.select(groupElement("tx_offload"));
    private static final long tx_offload$OFFSET = $LAYOUT.byteOffset(groupElement("tx_offload"));

    /**
     * @return the layout of field {@code tx_offload}.
     */
    public static OfLong tx_offload$layout()
    {
        return tx_offload$LAYOUT;
    }

    /**
     * @return the offset of field {@code tx_offload}.
     */
    public static long tx_offload$offset()
    {
        return tx_offload$OFFSET;
    }

    /**
     * @param struct the struct.
     * @return field {@code tx_offload}.
     */
    public static long tx_offload(final MemorySegment struct)
    {
        return struct.get(tx_offload$LAYOUT, tx_offload$OFFSET);
    }

    /**
     * @param struct     the struct.
     * @param fieldValue new value of field {@code tx_offload}.
     */
    public static void tx_offload(final MemorySegment struct, final long fieldValue)
    {
        struct.set(tx_offload$LAYOUT, tx_offload$OFFSET, fieldValue);
    }

    private static final AddressLayout shinfo$LAYOUT = (AddressLayout)$LAYOUT.select(groupElement("shinfo"));
    private static final long shinfo$OFFSET = $LAYOUT.byteOffset(groupElement("shinfo"));

    /**
     * @return the layout of field {@code shinfo}.
     */
    public static AddressLayout shinfo$layout()
    {
        return shinfo$LAYOUT;
    }

    /**
     * @return the offset of field {@code shinfo}.
     */
    public static long shinfo$offset()
    {
        return shinfo$OFFSET;
    }

    /**
     * @param struct the struct.
     * @return field {@code shinfo}.
     */
    public static MemorySegment shinfo(final MemorySegment struct)
    {
        return struct.get(shinfo$LAYOUT, shinfo$OFFSET);
    }

    /**
     * @param struct     the struct.
     * @param fieldValue new value of field {@code shinfo}.
     */
    public static void shinfo(final MemorySegment struct, final MemorySegment fieldValue)
    {
        struct.set(shinfo$LAYOUT, shinfo$OFFSET, fieldValue);
    }

    private static final OfShort priv_size$LAYOUT = (OfShort)$LAYOUT.select(groupElement("priv_size"));
    private static final long priv_size$OFFSET = $LAYOUT.byteOffset(groupElement("priv_size"));

    /**
     * @return the layout of field {@code priv_size}.
     */
    public static OfShort priv_size$layout()
    {
        return priv_size$LAYOUT;
    }

    /**
     * @return the offset of field {@code priv_size}.
     */
    public static long priv_size$offset()
    {
        return priv_size$OFFSET;
    }

    /**
     * @param struct the struct.
     * @return field {@code priv_size}.
     */
    public static short priv_size(final MemorySegment struct)
    {
        return struct.get(priv_size$LAYOUT, priv_size$OFFSET);
    }

    /**
     * @param struct     the struct.
     * @param fieldValue new value of field {@code priv_size}.
     */
    public static void priv_size(final MemorySegment struct, final short fieldValue)
    {
        struct.set(priv_size$LAYOUT, priv_size$OFFSET, fieldValue);
    }

    private static final OfShort timesync$LAYOUT = (OfShort)$LAYOUT.select(groupElement("timesync"));
    private static final long timesync$OFFSET = $LAYOUT.byteOffset(groupElement("timesync"));

    /**
     * @return the layout of field {@code timesync}.
     */
    public static OfShort timesync$layout()
    {
        return timesync$LAYOUT;
    }

    /**
     * @return the offset of field {@code timesync}.
     */
    public static long timesync$offset()
    {
        return timesync$OFFSET;
    }

    /**
     * @param struct the struct.
     * @return field {@code timesync}.
     */
    public static short timesync(final MemorySegment struct)
    {
        return struct.get(timesync$LAYOUT, timesync$OFFSET);
    }

    /**
     * @param struct     the struct.
     * @param fieldValue new value of field {@code timesync}.
     */
    public static void timesync(final MemorySegment struct, final short fieldValue)
    {
        struct.set(timesync$LAYOUT, timesync$OFFSET, fieldValue);
    }

    private static final SequenceLayout dynfield1$LAYOUT = (SequenceLayout)$LAYOUT.select(groupElement("dynfield1"));
    private static final long dynfield1$OFFSET = $LAYOUT.byteOffset(groupElement("dynfield1"));

    /**
     * @return the layout of field {@code dynfield1}.
     */
    public static SequenceLayout dynfield1$layout()
    {
        return dynfield1$LAYOUT;
    }

    /**
     * @return the offset of field {@code dynfield1}.
     */
    public static long dynfield1$offset()
    {
        return dynfield1$OFFSET;
    }

    /**
     * @param struct the struct.
     * @param index  element index.
     * @return element {@code index} of {@code dynfield1}.
     */
    public static int dynfield1(final MemorySegment struct, final long index)
    {
        return struct.get(dpdk_h.C_INT, dynfield1$OFFSET + index * dpdk_h.C_INT.byteSize());
    }
}
