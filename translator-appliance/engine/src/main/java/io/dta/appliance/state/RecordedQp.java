package io.dta.appliance.state;

/**
 * A static QP's entry as read from a resume state file.
 *
 * @param nameHash    CRC-32 of the region's key path.
 * @param localQpn    the appliance's QPN.
 * @param remoteQpn   the collector's QPN.
 * @param collectorIp the collector's IPv4 address.
 * @param startPsn    the configured start PSN.
 * @param nextPsn     the PSN the QP would have sent next, or {@link ResumeStateLayout#NO_PSN}.
 */
public record RecordedQp(int nameHash, int localQpn, int remoteQpn, int collectorIp, int startPsn, int nextPsn)
{
}
