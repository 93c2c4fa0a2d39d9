package io.dta.dpdk;

import io.dta.dpdk.ffi.DpdkLayout;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;

/**
 * Flyweight over one {@code struct rte_mbuf} (a packet, or one segment of a chained one: {@link #next()}), in the
 * Agrona style: {@link #wrap(long)}
 * an mbuf address, read or set its fields, and {@link #wrapData(UnsafeBuffer)} an {@link UnsafeBuffer} over its
 * packet data, without allocating. Offsets come from {@link DpdkLayout}, generated from the installed headers.
 * The descriptor fields are in host byte order (little-endian on x86-64); packet data is what the wire carries.
 */
public final class Mbuf
{
    /** Size of the descriptor. */
    public static final int SIZE = (int)DpdkLayout.RTE_MBUF_SIZE;
    /** Offset of {@code buf_addr}. */
    public static final int BUF_ADDR_OFFSET = (int)DpdkLayout.RTE_MBUF_BUF_ADDR;
    /** Offset of {@code data_off}. */
    public static final int DATA_OFF_OFFSET = (int)DpdkLayout.RTE_MBUF_DATA_OFF;
    /** Offset of {@code port}. */
    public static final int PORT_OFFSET = (int)DpdkLayout.RTE_MBUF_PORT;
    /** Offset of {@code ol_flags}. */
    public static final int OL_FLAGS_OFFSET = (int)DpdkLayout.RTE_MBUF_OL_FLAGS;
    /** Offset of {@code pkt_len}. */
    public static final int PKT_LEN_OFFSET = (int)DpdkLayout.RTE_MBUF_PKT_LEN;
    /** Offset of {@code data_len}. */
    public static final int DATA_LEN_OFFSET = (int)DpdkLayout.RTE_MBUF_DATA_LEN;
    /** Offset of {@code buf_len}. */
    public static final int BUF_LEN_OFFSET = (int)DpdkLayout.RTE_MBUF_BUF_LEN;
    /** Offset of {@code nb_segs}. */
    public static final int NB_SEGS_OFFSET = (int)DpdkLayout.RTE_MBUF_NB_SEGS;
    /** Offset of {@code next}. */
    public static final int NEXT_OFFSET = (int)DpdkLayout.RTE_MBUF_NEXT;

    private static final ByteOrder HOST = ByteOrder.nativeOrder();

    private final UnsafeBuffer header = new UnsafeBuffer(0, 0);
    private long address;

    /**
     * @param address address of an mbuf.
     * @return this.
     */
    public Mbuf wrap(final long address)
    {
        this.address = address;
        header.wrap(address, SIZE);
        return this;
    }

    /**
     * @return the wrapped mbuf's address.
     */
    public long address()
    {
        return address;
    }

    /**
     * @return {@code buf_addr}: the start of the buffer (headroom included).
     */
    public long bufferAddress()
    {
        return header.getLong(BUF_ADDR_OFFSET, HOST);
    }

    /**
     * @return {@code data_off}: where the data starts in the buffer.
     */
    public int dataOffset()
    {
        return header.getShort(DATA_OFF_OFFSET, HOST) & 0xFFFF;
    }

    /**
     * @return the address of the first data byte ({@code rte_pktmbuf_mtod}).
     */
    public long dataAddress()
    {
        return bufferAddress() + dataOffset();
    }

    /**
     * @return {@code data_len}: bytes of data in this segment.
     */
    public int dataLength()
    {
        return header.getShort(DATA_LEN_OFFSET, HOST) & 0xFFFF;
    }

    /**
     * @return {@code pkt_len}: bytes of data in the whole packet.
     */
    public long packetLength()
    {
        return header.getInt(PKT_LEN_OFFSET, HOST) & 0xFFFF_FFFFL;
    }

    /**
     * Sets the length of a single-segment packet: {@code data_len} and {@code pkt_len}.
     *
     * @param length bytes of data, at most {@link #tailroom()} + the current data length.
     * @return this.
     */
    public Mbuf length(final int length)
    {
        header.putShort(DATA_LEN_OFFSET, (short)length, HOST);
        header.putInt(PKT_LEN_OFFSET, length, HOST);
        return this;
    }

    /**
     * @return {@code buf_len}: size of the buffer, headroom included.
     */
    public int bufferLength()
    {
        return header.getShort(BUF_LEN_OFFSET, HOST) & 0xFFFF;
    }

    /**
     * @return bytes available from the data start to the end of the buffer.
     */
    public int room()
    {
        return bufferLength() - dataOffset();
    }

    /**
     * @return bytes after the data up to the end of the buffer.
     */
    public int tailroom()
    {
        return room() - dataLength();
    }

    /**
     * @return {@code nb_segs}.
     */
    public int segments()
    {
        return header.getShort(NB_SEGS_OFFSET, HOST) & 0xFFFF;
    }

    /**
     * @return {@code next}: the address of the packet's next segment, 0 for the last (or only) one.
     */
    public long next()
    {
        return header.getLong(NEXT_OFFSET, HOST);
    }

    /**
     * @return {@code port}: the input port of a received packet.
     */
    public int port()
    {
        return header.getShort(PORT_OFFSET, HOST) & 0xFFFF;
    }

    /**
     * @return {@code ol_flags}.
     */
    public long offloadFlags()
    {
        return header.getLong(OL_FLAGS_OFFSET, HOST);
    }

    /**
     * @param offset byte offset of a 64-bit dynamic field (e.g. the Rx timestamp) in the descriptor.
     * @return its value.
     */
    public long dynamicField64(final int offset)
    {
        return header.getLong(offset, HOST);
    }

    /**
     * Points {@code buffer} at this mbuf's data: {@code [data address, data address + data_len)}.
     *
     * @param buffer the buffer to wrap; reused for every packet.
     * @return {@code buffer}.
     */
    public UnsafeBuffer wrapData(final UnsafeBuffer buffer)
    {
        buffer.wrap(dataAddress(), dataLength());
        return buffer;
    }

    /**
     * Points {@code buffer} at this mbuf's whole data room, for writing a frame: {@code [data address, end of
     * buffer)}. Set the length with {@link #length(int)} afterwards.
     *
     * @param buffer the buffer to wrap; reused for every packet.
     * @return {@code buffer}.
     */
    public UnsafeBuffer wrapRoom(final UnsafeBuffer buffer)
    {
        buffer.wrap(dataAddress(), room());
        return buffer;
    }
}
