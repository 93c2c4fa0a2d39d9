package io.dta.collector.responder;

import io.dta.codec.Psn;
import io.dta.config.CollectorConfig;
import io.dta.config.RegionConfig;
import org.agrona.MutableDirectBuffer;

/**
 * State of one RC responder QP of the soft collector. A region has one or more, all over the same memory: a static
 * region one for its own settings ({@link #index()} 0) and one for each of its {@code workerQueuePairs} (index
 * {@code w} for entry {@code w - 1}); a negotiated region one per connection its service port accepted (index 0 for
 * the first, made at start; the others as connections come). Read-only to callers; the {@link SoftResponder} owns and
 * updates it.
 */
public final class ResponderQp
{
    /**
     * QP states that matter to a responder.
     */
    public enum State
    {
        /** A negotiated QP without a connection: every request is dropped (counted as not connected). */
        IDLE,
        /** A REP was sent: the QP is ready to receive, and its first valid request moves it to READY as an RTU does. */
        RTR,
        /** Ready to receive (RTR/RTS). */
        READY,
        /** A fatal NAK (0x61, 0x62) was sent: every further frame is dropped. */
        ERROR
    }

    /**
     * Where the connection set-up of a negotiated QP stands (translation.md §8).
     */
    public enum Connection
    {
        /** Static QP, or no REQ accepted yet (or the last attempt failed): listening on the service port. */
        LISTEN,
        /** REP sent, waiting for the RTU (the REP is re-sent on timeout). */
        REP_SENT,
        /** RTU (or a first valid request) received: the metadata SEND is out, waiting for its ACK. */
        SEND_PENDING,
        /** The metadata SEND was acknowledged: set-up complete. */
        ESTABLISHED,
        /** The metadata SEND was never acknowledged within its retries: the QP went to the error state. */
        FAILED,
        /**
         * The collector asked to end the connection: DREQ sent (re-sent on timeout), waiting for the DREP; the QP
         * executes nothing more. Then it listens again.
         */
        DREQ_SENT
    }

    /** Atomic results kept for duplicate replay (the responder's max_dest_rd_atomic). */
    public static final int SAVED_ATOMICS = 16;

    final CollectorConfig collector;
    final RegionConfig region;
    final MutableDirectBuffer memory;
    final int index;
    int qpn;
    /** The QPN the QP started with (its configured one, or the first it was given): never handed to another QP. */
    int firstQpn;
    final boolean negotiated;
    int peerQpn;
    final long base;
    final long length;
    final long rKey;

    State state;
    Connection connection = Connection.LISTEN;
    long cmLocalCommId;
    long cmRemoteCommId;
    long cmTransactionId;
    int sendPsn;
    long cmDeadlineNanos = Long.MAX_VALUE;
    int cmRetriesLeft;
    long cmTimeoutNanos;
    long ackTimeoutNanos;
    int sendRetries;
    int cmMaxRetries;
    int cmResponderResources;
    long cmDreqTransactionId;
    boolean cmDisconnected;
    boolean cmEverConnected;
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

    /**
     * @param collector the collector hosting the region.
     * @param region    the region (its memory, R_Key and address; for a negotiated region its service port).
     * @param memory    the region's memory, shared by every QP of the region.
     * @param index     the QP's place among its region's QPs (0: the region's own settings).
     * @param qpn       the collector's QPN.
     * @param peerQpn   the translator's QPN (a negotiated QP learns it from each REQ).
     * @param startPsn  the first expected PSN (a negotiated QP learns it from each REQ).
     */
    ResponderQp(
        final CollectorConfig collector,
        final RegionConfig region,
        final MutableDirectBuffer memory,
        final int index,
        final int qpn,
        final int peerQpn,
        final int startPsn)
    {
        this.collector = collector;
        this.region = region;
        this.memory = memory;
        this.index = index;
        this.qpn = qpn;
        this.firstQpn = qpn;
        this.negotiated = region.negotiated();
        this.state = negotiated ? State.IDLE : State.READY;
        this.peerQpn = peerQpn;
        this.base = region.address();
        this.length = region.length();
        this.rKey = region.rkey();
        this.expectedPsn = startPsn & Psn.MASK;
    }

    /**
     * The QP of a region's own settings (index 0).
     */
    ResponderQp(final CollectorConfig collector, final RegionConfig region, final MutableDirectBuffer memory)
    {
        this(collector, region, memory, 0, region.qpn(), region.localQpn(), region.startPsn());
    }

    /**
     * A new connection: the peer's QPN and starting PSN from its REQ, fresh responder state (MSN 0, no NAK
     * outstanding, no message in progress, no saved atomics). The memory is kept.
     */
    void connect(final int peerQpn, final int startPsn)
    {
        this.peerQpn = peerQpn;
        this.expectedPsn = startPsn & Psn.MASK;
        this.msn = 0;
        this.nakSent = false;
        this.inMessage = false;
        this.atomicSaved = 0;
        this.atomicNext = 0;
        this.state = State.RTR;
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
     * @return the QP's place among its region's QPs: 0 for the region's own settings (the first connection of a
     * negotiated region); for a static region {@code w} for {@code workerQueuePairs[w - 1]}; for a negotiated region
     * the order in which its connections first came (a QP whose connection ended can serve a later one).
     */
    public int index()
    {
        return index;
    }

    /**
     * @return this QP's current number: the region's {@code qpn} until a negotiated QP's second connection, then the
     * fresh number each new connection got (the previous one goes to time-wait, see {@link SoftResponder}).
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
     * @return true for a negotiated QP (its region has a service port).
     */
    public boolean negotiated()
    {
        return negotiated;
    }

    /**
     * @return where the connection set-up stands ({@link Connection#LISTEN} for static QPs).
     */
    public Connection connection()
    {
        return connection;
    }

    /**
     * @return the PSN of the metadata SEND (the starting PSN advertised in the REP) of the current connection.
     */
    public int sendPsn()
    {
        return sendPsn;
    }

    /**
     * @return the collector's communication ID of the current connection.
     */
    public long localCommId()
    {
        return cmLocalCommId;
    }

    /**
     * @return true when the last connection ended with a DREQ/DREP exchange (the QP listens again; a repeated DREQ
     * of that connection is answered with the DREP again).
     */
    public boolean disconnected()
    {
        return cmDisconnected;
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
