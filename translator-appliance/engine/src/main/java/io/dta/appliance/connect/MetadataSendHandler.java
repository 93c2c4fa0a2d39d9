package io.dta.appliance.connect;

import io.dta.codec.FrameDecoder;
import io.dta.codec.RoceOpcode;
import io.dta.config.RegionConfig;
import org.agrona.DirectBuffer;

import java.nio.ByteOrder;

/**
 * The collector's metadata SEND to a negotiated region's local QPN (translation.md §8): one RC SEND Only at the
 * REP's starting PSN, acknowledged at transport level (again for a duplicate, also after connection), whose 16 bytes
 * {address u64 LE, length u32 LE, key u32 LE} are validated; a valid one connects the region, an invalid one fails
 * it. A SEND out of place (before the REP, after the disconnection, another opcode or PSN) is dropped and counted,
 * and the region keeps the last reason for its failure message.
 */
final class MetadataSendHandler
{
    private final FrameDecoder decoder;
    private final ConnectionCounts counts;
    private final CmFrameSender frames;

    MetadataSendHandler(final FrameDecoder decoder, final ConnectionCounts counts, final CmFrameSender frames)
    {
        this.decoder = decoder;
        this.counts = counts;
        this.frames = frames;
    }

    /**
     * The RC SEND to {@code c}'s local QPN just decoded.
     */
    void onSend(final RegionConnection c, final int opcode, final long nowNanos)
    {
        if (!decoder.icrcValid())
        {
            counts.count(ConnectionCounter.BAD_ICRC);
            return;
        }
        final int psn = decoder.bth().psn();
        final String misplaced = misplaced(c, opcode, psn);
        if (null != misplaced)
        {
            dropSend(c, misplaced);
            return;
        }
        if (RegionConnection.State.CONNECTED == c.state || RegionConnection.State.FAILED == c.state)
        {
            // Our ACK was lost: acknowledge again so the collector's QP does not run out of retries.
            counts.count(ConnectionCounter.DUPLICATE_SENDS);
            frames.sendAck(c, psn, nowNanos);
            return;
        }

        // The SEND arrived intact at the right PSN: acknowledge it at transport level whatever its content says,
        // then judge the content.
        frames.sendAck(c, psn, nowNanos);
        final String problem = validate(c);
        if (null != problem)
        {
            counts.count(ConnectionCounter.SENDS_INVALID);
            counts.fail(c, problem);
            return;
        }
        counts.count(ConnectionCounter.SENDS);
        counts.count(ConnectionCounter.CONNECTED);
        c.state = RegionConnection.State.CONNECTED;
        c.deadlineNanos = Long.MAX_VALUE;
    }

    /**
     * @return why a SEND is out of place for the region's state, or null.
     */
    private static String misplaced(final RegionConnection c, final int opcode, final int psn)
    {
        if (RegionConnection.State.IDLE == c.state || RegionConnection.State.REQ_SENT == c.state ||
            0 == c.remoteQpn)
        {
            return "SEND before the REP";
        }
        if (RegionConnection.State.DISCONNECTING == c.state || RegionConnection.State.DISCONNECTED == c.state)
        {
            return "SEND after the disconnection";
        }
        if (RoceOpcode.RC_SEND_ONLY != opcode)
        {
            return "SEND opcode " + RoceOpcode.name(opcode) + " (a 16-byte metadata SEND is one SEND Only)";
        }
        if (psn != c.remoteStartPsn)
        {
            return String.format("SEND with PSN 0x%06x, the REP's starting PSN is 0x%06x", psn, c.remoteStartPsn);
        }
        return null;
    }

    private String validate(final RegionConnection c)
    {
        if (ConnectionManager.METADATA_LENGTH != decoder.payloadLength())
        {
            return "metadata SEND of " + decoder.payloadLength() + " bytes, expected " +
                ConnectionManager.METADATA_LENGTH;
        }
        final DirectBuffer b = decoder.buffer();
        final int p = decoder.payloadOffset();
        c.address = b.getLong(p, ByteOrder.LITTLE_ENDIAN);
        c.length = b.getInt(p + 8, ByteOrder.LITTLE_ENDIAN) & 0xFFFF_FFFFL;
        c.rkey = b.getInt(p + 12, ByteOrder.LITTLE_ENDIAN) & 0xFFFF_FFFFL;
        final long needed = c.region.length();
        if (c.length < needed)
        {
            return "the collector advertised " + c.length + " bytes at 0x" + Long.toHexString(c.address) +
                ", the configuration needs " + needed;
        }
        if (0 != (c.address & (RegionConfig.ADDRESS_ALIGNMENT - 1)))
        {
            return "the collector advertised address 0x" + Long.toHexString(c.address) + ", not 8-byte aligned";
        }
        if (Long.compareUnsigned(c.address + (needed - 1), c.address) < 0)
        {
            return "the collector advertised address 0x" + Long.toHexString(c.address) + ": " + needed +
                " bytes from there run past the end of the 64-bit address space";
        }
        return null;
    }

    private void dropSend(final RegionConnection c, final String why)
    {
        counts.count(ConnectionCounter.SENDS_DROPPED);
        c.droppedSends++;
        c.lastDrop = why;
    }
}
