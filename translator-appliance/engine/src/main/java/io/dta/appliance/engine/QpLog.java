package io.dta.appliance.engine;

/**
 * The lines a queue pair writes to standard error when it stops or continues at a restarted responder: rare events,
 * never on the hot path. A peer that keeps restarting gets one line a second ({@link LogLimiter}).
 */
final class QpLog
{
    private final LogLimiter restartLog = new LogLimiter(LogLimiter.DEFAULT_INTERVAL_NANOS);

    void fatalNak(final QpPath path, final int syndrome, final int psn)
    {
        System.err.printf("dta: QP %s (local QPN 0x%06x) stopped: responder sent NAK 0x%02x at PSN 0x%06x%n",
            path.name(), path.localQpn(), syndrome, psn);
    }

    void silent(final QpPath path, final long silentNanos, final int lastAckedPsn)
    {
        System.err.printf("dta: QP %s (local QPN 0x%06x) stopped: no answer to its probes for %d ms; last " +
            "acknowledged PSN 0x%06x%n", path.name(), path.localQpn(), silentNanos / 1_000_000, lastAckedPsn);
    }

    void disconnected(final QpPath path, final int lastAckedPsn)
    {
        System.err.printf("dta: QP %s (local QPN 0x%06x) stopped: the collector disconnected (DREQ); last " +
            "acknowledged PSN 0x%06x%n", path.name(), path.localQpn(), lastAckedPsn);
    }

    void restartedResponder(final QpPath path, final int expected, final int lastAcked, final long nowNanos)
    {
        if (!restartLog.allow(nowNanos))
        {
            return;
        }
        final long held = restartLog.takeSuppressed();
        System.err.printf("dta: QP %s (local QPN 0x%06x): the collector expects PSN 0x%06x, outside this QP's " +
            "window (last acknowledged 0x%06x), and answered %d tests as only a restarted QP can: continuing at " +
            "0x%06x, essential operations not acknowledged sent again%s%n", path.name(), path.localQpn(),
            expected, lastAcked, RestartEvidence.REQUIRED_ANSWERS, expected,
            0 == held ? "" : " (" + held + " more such lines held back)");
    }
}
