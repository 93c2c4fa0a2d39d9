package io.dta.collector.responder;

import io.dta.codec.Psn;
import io.dta.config.CollectorConfig;
import io.dta.config.RegionConfig;
import org.agrona.MutableDirectBuffer;

/**
 * State of one RC responder QP of the soft collector: one per hosted region. Read-only to callers; the
 * {@link SoftResponder} owns and updates it.
 */
public final class ResponderQp
{
    /**
     * QP states that matter to a responder.
     */
    public enum State
    {
        /** Ready to receive (RTR/RTS). */
        READY,
        /** A fatal NAK (0x61, 0x62) was sent: every further frame is dropped. */
        ERROR
    }

    /** Atomic results kept for duplicate replay (the responder's max_dest_rd_atomic). */
    public static final int SAVED_ATOMICS = 16;

    final CollectorConfig collector;
    final RegionConfig region;
    final MutableDirectBuffer memory;
    final int qpn;
    final int peerQpn;
    final long base;
    final long length;
    final long rKey;

    State state = State.READY;
    int expectedPsn;
    int msn;
    boolean nakSent;
    boolean inMessage;
    long messageVa;
    long messageRemaining;

    final int[] atomicPsn = new int[SAVED_ATOMICS];
    final long[] atomicOriginal = new long[SAVED_ATOMICS];
    final int[] atomicMsn = new int[SAVED_ATOMICS];
    int atomicSaved;
    int atomicNext;

    ResponderQp(final CollectorConfig collector, final RegionConfig region, final MutableDirectBuffer memory)
    {
        this.collector = collector;
        this.region = region;
        this.memory = memory;
        this.qpn = region.qpn();
        this.peerQpn = region.localQpn();
        this.base = region.address();
        this.length = region.length();
        this.rKey = region.rkey();
        this.expectedPsn = region.startPsn() & Psn.MASK;
    }

    void saveAtomic(final int psn, final long original, final int msnAfter)
    {
        atomicPsn[atomicNext] = psn;
        atomicOriginal[atomicNext] = original;
        atomicMsn[atomicNext] = msnAfter;
        atomicNext = (atomicNext + 1) % SAVED_ATOMICS;
        if (atomicSaved < SAVED_ATOMICS)
        {
            atomicSaved++;
        }
    }

    int findAtomic(final int psn)
    {
        for (int i = 0; i < atomicSaved; i++)
        {
            if (atomicPsn[i] == psn)
            {
                return i;
            }
        }
        return -1;
    }

    /**
     * @return the collector hosting this QP.
     */
    public CollectorConfig collector()
    {
        return collector;
    }

    /**
     * @return the region this QP writes.
     */
    public RegionConfig region()
    {
        return region;
    }

    /**
     * @return this QP's number (the region's {@code qpn}).
     */
    public int qpn()
    {
        return qpn;
    }

    /**
     * @return the translator's QPN for this connection (DestQP of responses).
     */
    public int peerQpn()
    {
        return peerQpn;
    }

    /**
     * @return the QP state.
     */
    public State state()
    {
        return state;
    }

    /**
     * @return the expected PSN (ePSN).
     */
    public int expectedPsn()
    {
        return expectedPsn;
    }

    /**
     * @return the current MSN (messages completed, 24-bit).
     */
    public int msn()
    {
        return msn;
    }

    /**
     * @return true while a NAK 0x60 is outstanding (further out-of-sequence requests are dropped silently).
     */
    public boolean nakOutstanding()
    {
        return nakSent;
    }

    /**
     * @return true inside a multi-packet WRITE (after FIRST or MIDDLE).
     */
    public boolean inMessage()
    {
        return inMessage;
    }

    /**
     * @return number of atomic results currently saved for replay.
     */
    public int savedAtomics()
    {
        return atomicSaved;
    }
}
