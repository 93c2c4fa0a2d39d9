package io.dta.appliance.engine;

/**
 * The fixed addressing of one RC queue pair towards a collector region: what every frame of the QP carries
 * apart from PSN, AckReq and the operation itself.
 *
 * @param name          region name for reports, e.g. {@code collector-a/keyWrite}.
 * @param collectorMac  collector NIC MAC (48 bits).
 * @param collectorIp   collector IPv4 address.
 * @param udpSourcePort constant UDP source port of the QP (ECMP entropy).
 * @param localQpn      the appliance's own QPN: responses carry it as their DestQP.
 * @param remoteQpn     the collector's QPN, DestQP of every request.
 * @param rkey          R_Key of the region.
 * @param baseAddress   virtual address of the region on the wire.
 * @param length        region length in bytes.
 * @param startPsn      first PSN the collector expects.
 * @param pathMtu       path MTU (largest payload per packet).
 */
public record QpPath(
    String name,
    long collectorMac,
    int collectorIp,
    int udpSourcePort,
    int localQpn,
    int remoteQpn,
    int rkey,
    long baseAddress,
    long length,
    int startPsn,
    int pathMtu)
{
}
