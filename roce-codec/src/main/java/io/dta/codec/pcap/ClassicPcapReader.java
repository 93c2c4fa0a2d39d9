package io.dta.codec.pcap;

import static io.dta.codec.pcap.PcapFormat.GLOBAL_HEADER_LENGTH;
import static io.dta.codec.pcap.PcapFormat.INCL_LEN_OFFSET;
import static io.dta.codec.pcap.PcapFormat.MAGIC_MICROSECONDS;
import static io.dta.codec.pcap.PcapFormat.MAGIC_MODIFIED;
import static io.dta.codec.pcap.PcapFormat.MAGIC_NANOSECONDS;
import static io.dta.codec.pcap.PcapFormat.NETWORK_OFFSET;
import static io.dta.codec.pcap.PcapFormat.ORIG_LEN_OFFSET;
import static io.dta.codec.pcap.PcapFormat.RECORD_HEADER_LENGTH;
import static io.dta.codec.pcap.PcapFormat.SNAPLEN_OFFSET;
import static io.dta.codec.pcap.PcapFormat.TS_FRACTION_OFFSET;
import static io.dta.codec.pcap.PcapFormat.TS_SEC_OFFSET;
import static io.dta.codec.pcap.PcapFormat.VERSION_MAJOR;
import static io.dta.codec.pcap.PcapFormat.VERSION_MAJOR_OFFSET;
import static io.dta.codec.pcap.PcapFormat.VERSION_MINOR;
import static io.dta.codec.pcap.PcapFormat.VERSION_MINOR_OFFSET;

import java.io.IOException;
import java.nio.ByteOrder;

/**
 * {@link PcapReader} of a classic libpcap file: the global header (magic in either byte order, micro- or nanosecond
 * timestamps, versions 2.0 to 2.4 with libpcap's reading of their record length order, a supported link type), then
 * one record per packet. A record cut short by the end of the file ends the capture ({@link #cutShort()}) unless its
 * header is already corrupt: a captured length above the sanity cap, above the original length, or above a non-zero
 * snap length, which no writer cut mid-record exceeds. A timestamp fraction of a second or more is carried into the
 * seconds, as libpcap and Wireshark read it. Obtained from {@link PcapReader#open(java.nio.file.Path)}.
 */
final class ClassicPcapReader extends AbstractPcapReader
{
    private static final int SWAPPED_LENGTHS_BEFORE_MINOR = 3;

    private final LengthOrder lengthOrder;

    /**
     * Parse the global header, whose first four bytes are buffered.
     *
     * @param stream         of the file, at its start.
     * @param magicBigEndian the first four bytes, read big-endian.
     * @throws PcapFormatException if the header is not one of a supported classic capture.
     */
    ClassicPcapReader(final CaptureStream stream, final int magicBigEndian) throws PcapFormatException
    {
        super(stream);
        magic(magicBigEndian);

        final int available = stream.available();
        if (available < GLOBAL_HEADER_LENGTH)
        {
            throw failure(0, "truncated global header at byte offset 0: need " + GLOBAL_HEADER_LENGTH +
                " bytes, " + available + " present");
        }

        final int major = buffer.getShort(VERSION_MAJOR_OFFSET, fileByteOrder) & 0xFFFF;
        final int minor = buffer.getShort(VERSION_MINOR_OFFSET, fileByteOrder) & 0xFFFF;
        if (VERSION_MAJOR != major || minor > VERSION_MINOR)
        {
            throw failure(0, "unsupported pcap version " + major + "." + minor + " at byte offset 0: only " +
                VERSION_MAJOR + ".0 to " + VERSION_MAJOR + "." + VERSION_MINOR + " are supported");
        }
        // As libpcap reads them: writers before 2.3 put the original length first, and some 2.3 writers did too.
        lengthOrder = minor < SWAPPED_LENGTHS_BEFORE_MINOR ? LengthOrder.SWAPPED :
            minor == SWAPPED_LENGTHS_BEFORE_MINOR ? LengthOrder.MAYBE_SWAPPED : LengthOrder.STANDARD;

        final long network = buffer.getInt(NETWORK_OFFSET, fileByteOrder) & 0xFFFF_FFFFL;
        // The upper bits of the field (FCS length, class) must be clear: none of the supported types has an FCS.
        if (network > 0xFFFF || !LinkLayerAdapter.isSupported((int)network))
        {
            throw failure(0, "unsupported link type " + (network & 0xFFFF) + " (link type field 0x" +
                hex((int)network) + ") at byte offset 0: the supported link types are " +
                LinkLayerAdapter.SUPPORTED_LINK_TYPES);
        }
        linkType = (int)network;

        final long snap = buffer.getInt(SNAPLEN_OFFSET, fileByteOrder) & 0xFFFF_FFFFL;
        snapLength = (int)Math.min(snap, Integer.MAX_VALUE);
        stream.consume(GLOBAL_HEADER_LENGTH);
    }

    private void magic(final int magicBigEndian) throws PcapFormatException
    {
        final int magicLittleEndian = Integer.reverseBytes(magicBigEndian);
        if (MAGIC_MICROSECONDS == magicBigEndian || MAGIC_NANOSECONDS == magicBigEndian)
        {
            fileByteOrder = ByteOrder.BIG_ENDIAN;
            nanosecondResolution = MAGIC_NANOSECONDS == magicBigEndian;
        }
        else if (MAGIC_MICROSECONDS == magicLittleEndian || MAGIC_NANOSECONDS == magicLittleEndian)
        {
            fileByteOrder = ByteOrder.LITTLE_ENDIAN;
            nanosecondResolution = MAGIC_NANOSECONDS == magicLittleEndian;
        }
        else if (MAGIC_MODIFIED == magicBigEndian || MAGIC_MODIFIED == magicLittleEndian)
        {
            throw failure(0, "magic 0xa1b2cd34 at byte offset 0: the modified (Kuznetzov) pcap variant is " +
                "not supported; convert it with `editcap -F pcap in out.pcap`");
        }
        else
        {
            throw failure(0, "bad magic 0x" + hex(magicBigEndian) + " at byte offset 0: not a pcap or pcapng file");
        }
    }

    @Override
    boolean advance() throws IOException
    {
        if (!headerAvailable(RECORD_HEADER_LENGTH, "packet record header"))
        {
            return false;
        }
        final long offset = stream.fileOffset();
        final int header = stream.readIndex();

        final long first = buffer.getInt(header + INCL_LEN_OFFSET, fileByteOrder) & 0xFFFF_FFFFL;
        final long second = buffer.getInt(header + ORIG_LEN_OFFSET, fileByteOrder) & 0xFFFF_FFFFL;
        final boolean swapped = LengthOrder.SWAPPED == lengthOrder ||
            (LengthOrder.MAYBE_SWAPPED == lengthOrder && first > second);
        final long included = swapped ? second : first;
        final long original = swapped ? first : second;
        final long seconds = buffer.getInt(header + TS_SEC_OFFSET, fileByteOrder) & 0xFFFF_FFFFL;
        final long fraction = buffer.getInt(header + TS_FRACTION_OFFSET, fileByteOrder) & 0xFFFF_FFFFL;

        // A fraction of a whole second or more is carried into the seconds, as libpcap and Wireshark read it:
        // scapy's wrpcap rounds a time such as x.9999996 to x seconds and 1000000 microseconds.
        checkLengths(offset, included, original);

        final int recordLength = RECORD_HEADER_LENGTH + (int)included;
        if (stream.request(recordLength) < recordLength)
        {
            return recordCutShort(offset, included);
        }

        // The buffer may have been compacted by the request: the record is at the read index again.
        final int dataIndex = stream.readIndex() + RECORD_HEADER_LENGTH;
        stream.consume(recordLength);
        present(offset, seconds * NANOS_PER_SECOND + (nanosecondResolution ? fraction : fraction * 1_000L),
            included, original, dataIndex);
        return true;
    }

    /**
     * The file ends inside the data of the record at {@code offset}: a capture cut short, unless the header says more
     * than the snap length, which a writer cut mid-record had not written.
     */
    private boolean recordCutShort(final long offset, final long included) throws PcapFormatException
    {
        final int remain = stream.available() - RECORD_HEADER_LENGTH;
        if (0 != snapLength && included > snapLength)
        {
            throw failure(offset, "truncated packet record at byte offset " + offset + ": header says " +
                included + " captured bytes, above the snap length " + snapLength + ", " + remain +
                " remain: a damaged record, not a capture cut short");
        }
        return cutShort(offset, "packet record", remain);
    }

    @Override
    public boolean pcapng()
    {
        return false;
    }

    /**
     * Where a classic pcap record header has its captured length: libpcap's reading of the versions before 2.4.
     */
    private enum LengthOrder
    {
        /** Captured length, then original length (2.4). */
        STANDARD,
        /** Original length first (2.0 to 2.2). */
        SWAPPED,
        /** Either (2.3): the smaller of the two is the captured length. */
        MAYBE_SWAPPED
    }
}
