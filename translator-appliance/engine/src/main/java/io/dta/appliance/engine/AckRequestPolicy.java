package io.dta.appliance.engine;

/**
 * Which packets of a queue pair carry AckReq, and how many may be in flight (translation.md §5): every
 * {@code acks.requestInterval}-th packet asks for an ACK. After a resynchronisation (the link just lost something)
 * AckReq comes more often and the window narrows for {@link #LOSSY_SPAN_WINDOWS} windows' worth of packets, so that
 * the essential ring frees and the window opens sooner, and a loss costs fewer re-sends.
 * <p>
 * An AckReq set because the QP went idle does not restart the count: the periodic one stays on every n-th packet;
 * only a new connection or a resynchronisation (a new PSN sequence) starts it again. Engine thread only.
 */
final class AckRequestPolicy
{
    /**
     * Packets sent after a resynchronisation during which AckReq comes more often.
     */
    static final int LOSSY_SPAN_WINDOWS = 4;

    private final int requestInterval;
    private final int window;
    private final int lossyInterval;
    private final int lossyWindow;
    private int lossyPacketsLeft;
    private int sincePeriodicAckReq;

    /**
     * @param requestInterval AckReq on every this many packets.
     * @param window          packets allowed in flight (at least 1 is kept).
     */
    AckRequestPolicy(final int requestInterval, final int window)
    {
        this.requestInterval = requestInterval;
        this.window = Math.max(1, window);
        this.lossyInterval = Math.max(1, Math.min(requestInterval, this.window / 16));
        this.lossyWindow = Math.max(1, Math.min(this.window, Math.max(2 * lossyInterval, this.window / 8)));
    }

    /**
     * One more packet is built.
     *
     * @return whether it carries AckReq by the periodic rule.
     */
    boolean nextPacket()
    {
        int interval = requestInterval;
        if (lossyPacketsLeft > 0)
        {
            lossyPacketsLeft--;
            interval = lossyInterval;
        }
        final boolean ackReq = ++sincePeriodicAckReq >= interval;
        if (ackReq)
        {
            sincePeriodicAckReq = 0;
        }
        return ackReq;
    }

    /**
     * @return packets allowed in flight now (fewer for a while after a loss).
     */
    int window()
    {
        return lossyPacketsLeft > 0 ? lossyWindow : window;
    }

    /**
     * A new PSN sequence (a new connection): the periodic count starts again.
     */
    void restart()
    {
        sincePeriodicAckReq = 0;
    }

    /**
     * A resynchronisation: the periodic count starts again, and AckReq comes more often for a while.
     */
    void afterLoss()
    {
        sincePeriodicAckReq = 0;
        lossyPacketsLeft = LOSSY_SPAN_WINDOWS * window;
    }
}
