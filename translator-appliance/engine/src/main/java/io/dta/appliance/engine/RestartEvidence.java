package io.dta.appliance.engine;

import io.dta.codec.Psn;

/**
 * Whether a QP's responder lost what it knew of the QP (a restarted collector, or a responder ahead of a restarted
 * translator) — decided only on evidence a stale or forged frame cannot give.
 * <p>
 * A response that names a PSN outside the QP's window raises a <em>suspicion</em>: the responder may expect
 * {@code expectedPsn}. A stale frame (a late or duplicated ACK or NAK) says the same, so the suspicion alone moves
 * nothing. The QP then sends a <em>test</em>, a zero-length WRITE with AckReq whose answer differs between the two
 * cases, and the suspicion is confirmed only when {@link #REQUIRED_ANSWERS} tests in a row, each sent after the
 * previous one was answered, drew exactly the answer a responder at {@code expectedPsn} gives; any answer inside the
 * window refutes it.
 * <ul>
 *     <li>The responder would be <em>behind</em> the window ({@code expectedPsn} at or before the last acknowledged
 *     PSN): the test goes on {@code expectedPsn}. A restarted responder executes the first and answers each with an
 *     ACK of {@code expectedPsn}; a responder in step takes it for a duplicate and ACKs its own expected PSN − 1,
 *     inside the window.</li>
 *     <li>The responder would be <em>ahead</em> of what was sent: the test is an ordinary probe on the last
 *     acknowledged PSN, a duplicate for either responder; one ahead answers with an ACK of {@code expectedPsn − 1},
 *     one in step with an ACK inside the window.</li>
 * </ul>
 * Silence (an outage, a full transmit ring) is no evidence at all: the suspicion waits, its test re-sent with each
 * probe. Then the QP continues at {@link #continueAt()}: the confirmed responder's expected PSN.
 */
final class RestartEvidence
{
    /**
     * Agreeing answers to tests in a row that confirm a suspicion: one answer could be a stale frame that happened
     * to match, several in a row (each drawn by its own test) cannot.
     */
    static final int REQUIRED_ANSWERS = 3;

    private boolean suspected;
    private boolean behind;
    private int expectedPsn;
    private boolean testOutstanding;
    private int answers;

    /**
     * A response named a PSN outside the window.
     *
     * @param expected     the PSN the responder would expect.
     * @param lastAcked    the QP's last acknowledged PSN.
     * @param highestSent  the highest PSN the QP sent.
     * @return true when this is a new suspicion (or one whose test is not outstanding).
     */
    boolean suspect(final int expected, final int lastAcked, final int highestSent)
    {
        final boolean isBehind = Psn.compare(expected, lastAcked) < 0;
        final boolean isAhead = Psn.compare(expected, Psn.next(highestSent)) > 0;
        if (!isBehind && !isAhead)
        {
            // Inside the window (at the last acknowledged PSN, say: one stale ACK below it): no responder state the
            // window does not already allow, nothing to test.
            return false;
        }
        if (suspected && expected == expectedPsn)
        {
            return !testOutstanding;
        }
        suspected = true;
        behind = isBehind;
        expectedPsn = expected;
        answers = 0;
        testOutstanding = false;
        return true;
    }

    /**
     * @return whether a suspicion is open (its test is re-sent with each probe).
     */
    boolean suspected()
    {
        return suspected;
    }

    /**
     * @param lastAcked the QP's last acknowledged PSN.
     * @return the PSN the test goes on.
     */
    int testPsn(final int lastAcked)
    {
        return behind ? expectedPsn : lastAcked;
    }

    /**
     * A test went out.
     */
    void testSent()
    {
        testOutstanding = true;
    }

    /**
     * An ACK outside the window came in.
     *
     * @param psn its PSN.
     * @return true when it is the answer the suspicion predicts to an outstanding test (counted).
     */
    boolean agrees(final int psn)
    {
        if (!suspected || !testOutstanding || psn != awaitedAck())
        {
            return false;
        }
        testOutstanding = false;
        answers++;
        return true;
    }

    /**
     * @return true when enough agreeing answers came in a row.
     */
    boolean confirmed()
    {
        return suspected && answers >= REQUIRED_ANSWERS;
    }

    /**
     * @return the PSN the confirmed responder expects next.
     */
    int continueAt()
    {
        return behind ? Psn.next(expectedPsn) : expectedPsn;
    }

    /**
     * @return the PSN the suspicion was raised for.
     */
    int expectedPsn()
    {
        return expectedPsn;
    }

    private int awaitedAck()
    {
        return behind ? expectedPsn : Psn.add(expectedPsn, -1);
    }

    /**
     * An answer inside the window, a resynchronisation or a new connection: the suspicion is over.
     */
    void clear()
    {
        suspected = false;
        testOutstanding = false;
        answers = 0;
    }
}
