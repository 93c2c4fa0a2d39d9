package io.dta.appliance.dpdk;

import io.dta.appliance.io.FrameSource;
import io.dta.appliance.replay.CutShortCapture;
import io.dta.codec.pcap.PcapFormat;
import io.dta.codec.pcap.PcapReader;
import io.dta.dpdk.EthPort;
import io.dta.dpdk.Mbuf;
import io.dta.dpdk.MbufArray;
import io.dta.dpdk.Mempool;
import org.agrona.concurrent.UnsafeBuffer;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * Frames of one input port, one at a time, with the capture time of the record each one came from. The records
 * are read from the capture as given, as the Java replay reads it (of a non-Ethernet capture, the frames of its
 * Ethernet copy), so a capture cut short ends here where it ends there.
 */
final class ReplayCursor implements FrameSource, AutoCloseable
{
    private static final int BURST = 32;
    private static final int EMPTY_POLLS_BEFORE_GIVING_UP = 100_000;
    private static final int NET_PCAP_LENGTH_MASK = 0xFFFF;
    private static final long PCAP_SECONDS_WRAP_MICROS = (1L << 32) * 1_000_000L;

    private final EthPort port;
    private final Path capture;
    private final Path name;
    private final PcapReader records;
    private final MbufArray burst = new MbufArray(BURST);
    private final Mbuf mbuf = new Mbuf();
    private final UnsafeBuffer frame = new UnsafeBuffer(0, 0);
    private final Mbuf segment = new Mbuf();
    private final UnsafeBuffer part = new UnsafeBuffer(0, 0);
    private UnsafeBuffer chain;
    private int count;
    private int index;
    private long frames;

    ReplayCursor(final EthPort port, final Path capture, final Path name, final long mac) throws IOException
    {
        this.port = port;
        this.capture = capture;
        this.name = name;
        this.records = PcapReader.open(capture).destinationMac(mac);
    }

    void addIfCut(final String input, final List<CutShortCapture> cutShort)
    {
        CutShortCapture.addIfCut(cutShort, input, name, records);
    }

    @Override
    public boolean next() throws IOException
    {
        index++;
        if (index >= count)
        {
            Mempool.freeBulk(burst, count);
            count = 0;
            index = 0;
            if (!records.next())
            {
                drainUnexpected();
                return false;
            }
            int polls = 0;
            while (0 == (count = port.rxBurst(burst, BURST)))
            {
                if (++polls > EMPTY_POLLS_BEFORE_GIVING_UP)
                {
                    throw new IllegalStateException(port.name() + " delivered " + frames + " frames of " +
                        name + ", which holds more: libpcap stopped reading it, or net_pcap dropped a record " +
                        "the pool had no mbuf left for");
                }
                Thread.onSpinWait();
            }
        }
        else if (!records.next())
        {
            throw new IllegalStateException(port.name() + " delivered more frames than " + name + " holds");
        }
        mbuf.wrap(burst.get(index));
        if (mbuf.segments() > 1)
        {
            gather();
        }
        else
        {
            mbuf.wrapData(frame);
        }
        if (records.capturedLength() > NET_PCAP_LENGTH_MASK && frame.capacity() != records.capturedLength() &&
            (frame.capacity() & NET_PCAP_LENGTH_MASK) == (records.capturedLength() & NET_PCAP_LENGTH_MASK))
        {
            // net_pcap (22.11) copies a record into its mbuf chain with a 16-bit length, so one longer than
            // 65 535 bytes (longer than any IPv4 packet on Ethernet) arrives with its length modulo 65 536, or
            // 65 536 more when that is below the first segment's room (the copy's countdown wraps): congruent
            // either way. Its bytes are those of the record read alongside.
            frame.wrap(records.buffer(), records.offset(), records.capturedLength());
        }
        final boolean stamped = 0 != (mbuf.offloadFlags() & port.rxTimestampFlag());
        final long micros = stamped ? mbuf.dynamicField64(port.rxTimestampOffset()) : 0;
        if (frame.capacity() != records.capturedLength() ||
            (stamped && !sameMicrosecond(micros, records.timestampNanos())))
        {
            throw new IllegalStateException("frame " + (frames + 1) + " of " + name + " from " + port.name() +
                " does not match its capture record (length " + frame.capacity() + " vs " +
                records.capturedLength() + (stamped ? ", time " + micros + " vs " +
                records.timestampNanos() / 1000 + " µs" : "") + ")");
        }
        frames++;
        return true;
    }

    /**
     * A record longer than the pool's data room (a jumbo frame) comes from {@code net_pcap} as a chain of mbufs:
     * the engine reads one contiguous frame, as the Java replay hands it, so the chain is copied into a buffer
     * allocated the first time (rare frames, which the engine counts and skips: no report is that long).
     */
    private void gather()
    {
        if (null == chain)
        {
            chain = new UnsafeBuffer(new byte[PcapFormat.MAX_CAPTURED_LENGTH]);
        }
        int length = 0;
        for (long address = mbuf.address(); 0 != address; address = segment.next())
        {
            segment.wrap(address).wrapData(part);
            if (part.capacity() > chain.capacity() - length)
            {
                throw new IllegalStateException("frame " + (frames + 1) + " of " + name + " from " +
                    port.name() + " is longer than " + chain.capacity() + " bytes");
            }
            chain.putBytes(length, part, 0, part.capacity());
            length += part.capacity();
        }
        frame.wrap(chain, 0, length);
    }

    /**
     * libpcap reads the seconds of a classic record as a signed 32-bit number (pcap-savefile(5)'s
     * {@code bpf_int32}) where {@link PcapReader}, as Wireshark, reads them unsigned: from 2038-01-19 on, the
     * two times differ by exactly 2^32 s. The capture is the same record either way, and the engine's clock is
     * the reader's.
     */
    private static boolean sameMicrosecond(final long mbufMicros, final long recordNanos)
    {
        return 0 == Math.floorMod(mbufMicros - recordNanos / 1000, PCAP_SECONDS_WRAP_MICROS);
    }

    private void drainUnexpected()
    {
        final int extra = port.rxBurst(burst, BURST);
        Mempool.freeBulk(burst, extra);
        if (extra > 0)
        {
            throw new IllegalStateException(port.name() + " delivered more frames than " + name + " holds");
        }
    }

    @Override
    public long timeNanos()
    {
        return records.timestampNanos();
    }

    /**
     * The current frame: over the mbuf's data, or over the gathered copy of a chained mbuf.
     */
    @Override
    public UnsafeBuffer buffer()
    {
        return frame;
    }

    @Override
    public int offset()
    {
        return 0;
    }

    @Override
    public int length()
    {
        return frame.capacity();
    }

    @Override
    public void close() throws IOException
    {
        if (count > 0)
        {
            Mempool.freeBulk(burst, count);
            count = 0;
        }
        records.close();
    }
}
