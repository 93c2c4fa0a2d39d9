package io.dta.collector.responder;

import java.nio.ByteOrder;

import io.dta.codec.AethFlyweight;
import io.dta.codec.AtomicEthFlyweight;
import io.dta.codec.FrameDecoder;
import io.dta.codec.Psn;
import io.dta.codec.RethFlyweight;
import io.dta.codec.RoceOpcode;

/**
 * Executes the requests of a responder QP that arrive in sequence, and answers duplicates (rocev2-reference.md §3):
 * opcode order (no MIDDLE/LAST outside a message, nothing else inside one), an RNR NAK for requests that need a
 * receive WQE, supported operations, lengths against the path MTU and PadCnt, R_Key and bounds, atomic alignment;
 * then the WRITE copied to memory or the atomic run on little-endian memory, the MSN and expected PSN advanced, and
 * the acknowledgement. A failed check sends NAK 0x61 or 0x62 and puts the QP in the error state. Reads the request
 * from the responder's {@link FrameDecoder}; allocates nothing.
 */
final class RequestExecutor
{
    private static final long MAX_DMA_LENGTH = 1L << 31;
    /** RNR timer code of RNR NAKs: 0 (655.36 ms), the min_rnr_timer the Linux IB CM gives a responder QP. */
    private static final int MIN_RNR_TIMER = 0;

    private final SoftResponder responder;
    private final FrameDecoder decoder;
    private final AckSender acks;

    // Where the WRITE being executed goes, and the bytes of its message left from there.
    private long writeVa;
    private long writeRemaining;

    RequestExecutor(final SoftResponder responder, final FrameDecoder decoder, final AckSender acks)
    {
        this.responder = responder;
        this.decoder = decoder;
        this.acks = acks;
    }

    /**
     * A request whose PSN is behind the expected one: a WRITE is re-ACKed with PSN ePSN − 1, an atomic answered
     * from its saved result or dropped when none is saved, a READ dropped (none is ever executed).
     */
    void onDuplicate(final ResponderQp qp, final int opcode, final int psn, final ResponseSink out)
    {
        responder.count(ResponderCounter.DUPLICATES);
        if (RoceOpcode.RC_RDMA_READ_REQUEST == opcode)
        {
            // A duplicate READ is replayed only from a saved READ resource; no READ is ever executed here.
            return;
        }
        if (RoceOpcode.hasAtomicEth(opcode))
        {
            final int saved = qp.findAtomic(psn);
            if (saved < 0)
            {
                responder.count(ResponderCounter.DUPLICATE_ATOMICS_DROPPED);
                return;
            }
            responder.count(ResponderCounter.DUPLICATE_ATOMICS_REPLAYED);
            acks.send(qp, RoceOpcode.RC_ATOMIC_ACKNOWLEDGE, psn, AethFlyweight.CREDIT_INVALID, qp.atomicMsn[saved],
                qp.atomicOriginal[saved], out);
            return;
        }
        acks.send(qp, RoceOpcode.RC_ACKNOWLEDGE, Psn.add(qp.expectedPsn, -1), AethFlyweight.CREDIT_INVALID, qp.msn,
            0, out);
    }

    /**
     * Execute the request with the expected PSN.
     */
    void execute(final ResponderQp qp, final int opcode, final int psn, final boolean ackReq, final ResponseSink out)
    {
        final boolean continuation = RoceOpcode.RC_RDMA_WRITE_MIDDLE == opcode ||
            RoceOpcode.RC_RDMA_WRITE_LAST == opcode || RoceOpcode.RC_RDMA_WRITE_LAST_WITH_IMMEDIATE == opcode;
        if (continuation != qp.inMessage)
        {
            fatal(qp, psn, AethFlyweight.NAK_INVALID_REQUEST, out);
            return;
        }
        if (RequestOpcodes.consumesReceiveWqe(opcode))
        {
            // No receive queue: recoverable (class B), nothing changes, the requester retries after the timer.
            responder.count(ResponderCounter.RNR_NAKS);
            acks.send(qp, RoceOpcode.RC_ACKNOWLEDGE, psn, AethFlyweight.rnrNakSyndrome(MIN_RNR_TIMER), qp.msn, 0, out);
            return;
        }
        if (!RequestOpcodes.isSupported(opcode))
        {
            fatal(qp, psn, AethFlyweight.NAK_INVALID_REQUEST, out);
            return;
        }
        if (RoceOpcode.hasAtomicEth(opcode))
        {
            executeAtomic(qp, opcode, psn, out);
            return;
        }
        executeWrite(qp, opcode, psn, ackReq, out);
    }

    private void executeWrite(
        final ResponderQp qp, final int opcode, final int psn, final boolean ackReq, final ResponseSink out)
    {
        final int mtu = qp.collector.pathMtu();
        final int payload = decoder.payloadLength();
        final int pad = decoder.padCount();
        final boolean starts = RoceOpcode.RC_RDMA_WRITE_ONLY == opcode || RoceOpcode.RC_RDMA_WRITE_FIRST == opcode;
        if (!(starts ? startsMessage(qp, opcode, psn, payload, mtu, out) :
            continuesMessage(qp, opcode, psn, payload, mtu, out)))
        {
            return;
        }
        final long va = writeVa;
        final long remaining = writeRemaining;
        final boolean lengthOk = remaining > mtu ?
            payload == mtu && 0 == pad : payload == remaining && pad == (int)(-remaining & 3);
        if (!lengthOk)
        {
            fatal(qp, psn, AethFlyweight.NAK_INVALID_REQUEST, out);
            return;
        }

        if (payload > 0)
        {
            qp.memory.putBytes((int)(va - qp.base), decoder.buffer(), decoder.payloadOffset(), payload);
            responder.add(ResponderCounter.WRITE_BYTES, payload);
        }
        responder.count(ResponderCounter.WRITE_PACKETS);
        final boolean last = RoceOpcode.RC_RDMA_WRITE_ONLY == opcode || RoceOpcode.RC_RDMA_WRITE_LAST == opcode;
        if (last)
        {
            qp.inMessage = false;
            qp.msn = Psn.next(qp.msn);
            responder.count(ResponderCounter.MESSAGES);
        }
        else
        {
            qp.inMessage = true;
            qp.messageVa = va + payload;
            qp.messageRemaining = remaining - payload;
        }
        qp.expectedPsn = Psn.next(psn);
        if (ackReq)
        {
            acks.send(qp, RoceOpcode.RC_ACKNOWLEDGE, psn, AethFlyweight.CREDIT_INVALID, qp.msn, 0, out);
        }
    }

    /**
     * A WRITE Only or First: its RETH's length, R_Key and bounds; sets {@link #writeVa} and {@link #writeRemaining}.
     *
     * @return false when the request failed (NAKed, QP in error).
     */
    private boolean startsMessage(
        final ResponderQp qp, final int opcode, final int psn, final int payload, final int mtu,
        final ResponseSink out)
    {
        final RethFlyweight reth = decoder.reth();
        final long dmaLength = reth.dmaLength();
        final boolean only = RoceOpcode.RC_RDMA_WRITE_ONLY == opcode;
        if (dmaLength > MAX_DMA_LENGTH || (only ? payload > mtu : payload != mtu))
        {
            fatal(qp, psn, AethFlyweight.NAK_INVALID_REQUEST, out);
            return false;
        }
        final long va = reth.virtualAddress();
        if (0 != dmaLength && (reth.rKey() != qp.rKey || !inBounds(qp, va, dmaLength)))
        {
            fatal(qp, psn, AethFlyweight.NAK_REMOTE_ACCESS_ERROR, out);
            return false;
        }
        if (only && dmaLength > mtu)
        {
            fatal(qp, psn, AethFlyweight.NAK_INVALID_REQUEST, out);
            return false;
        }
        writeVa = va;
        writeRemaining = dmaLength;
        return true;
    }

    /**
     * A WRITE Middle or Last: its payload against the path MTU and the message's rest; sets {@link #writeVa} and
     * {@link #writeRemaining}.
     *
     * @return false when the request failed (NAKed, QP in error).
     */
    private boolean continuesMessage(
        final ResponderQp qp, final int opcode, final int psn, final int payload, final int mtu,
        final ResponseSink out)
    {
        final boolean middle = RoceOpcode.RC_RDMA_WRITE_MIDDLE == opcode;
        if (middle ? payload != mtu : payload < 1 || payload > mtu)
        {
            fatal(qp, psn, AethFlyweight.NAK_INVALID_REQUEST, out);
            return false;
        }
        if (!middle && qp.messageRemaining > mtu)
        {
            fatal(qp, psn, AethFlyweight.NAK_INVALID_REQUEST, out);
            return false;
        }
        writeVa = qp.messageVa;
        writeRemaining = qp.messageRemaining;
        return true;
    }

    private void executeAtomic(final ResponderQp qp, final int opcode, final int psn, final ResponseSink out)
    {
        final AtomicEthFlyweight atomic = decoder.atomicEth();
        final long va = atomic.virtualAddress();
        if (atomic.rKey() != qp.rKey || !inBounds(qp, va, 8))
        {
            fatal(qp, psn, AethFlyweight.NAK_REMOTE_ACCESS_ERROR, out);
            return;
        }
        if (0 != (va & 7))
        {
            fatal(qp, psn, AethFlyweight.NAK_INVALID_REQUEST, out);
            return;
        }
        final int offset = (int)(va - qp.base);
        final long original = qp.memory.getLong(offset, ByteOrder.LITTLE_ENDIAN);
        final long updated;
        if (RoceOpcode.RC_FETCH_ADD == opcode)
        {
            updated = original + atomic.swapAddData();
        }
        else
        {
            updated = original == atomic.compareData() ? atomic.swapAddData() : original;
        }
        qp.memory.putLong(offset, updated, ByteOrder.LITTLE_ENDIAN);
        responder.count(ResponderCounter.ATOMICS);
        qp.msn = Psn.next(qp.msn);
        responder.count(ResponderCounter.MESSAGES);
        qp.saveAtomic(psn, original, qp.msn);
        qp.expectedPsn = Psn.next(psn);
        acks.send(qp, RoceOpcode.RC_ATOMIC_ACKNOWLEDGE, psn, AethFlyweight.CREDIT_INVALID, qp.msn, original, out);
    }

    private void fatal(final ResponderQp qp, final int psn, final int nakCode, final ResponseSink out)
    {
        responder.count(AethFlyweight.NAK_REMOTE_ACCESS_ERROR == nakCode ?
            ResponderCounter.REMOTE_ACCESS_ERRORS : ResponderCounter.INVALID_REQUESTS);
        acks.send(qp, RoceOpcode.RC_ACKNOWLEDGE, psn, AethFlyweight.nakSyndrome(nakCode), qp.msn, 0, out);
        qp.state = ResponderQp.State.ERROR;
        qp.inMessage = false;
    }

    private static boolean inBounds(final ResponderQp qp, final long va, final long length)
    {
        final long offset = va - qp.base;
        return Long.compareUnsigned(offset, qp.length) <= 0 && Long.compareUnsigned(length, qp.length - offset) <= 0;
    }
}
