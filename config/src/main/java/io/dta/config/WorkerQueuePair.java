package io.dta.config;

/**
 * The queue pair one worker (1, 2, …) uses to write a static region: the region's memory, R_Key and address are the
 * region's own; the QP numbers, starting PSN and UDP source port are the worker's (RDMA lets several QPs write one
 * memory region).
 *
 * @param localQpn      the appliance's QPN of this worker's QP (responses are demultiplexed by it), 24-bit.
 * @param qpn           the collector's QPN of this worker's QP, 24-bit.
 * @param startPsn      first PSN sent, 24-bit, default 0.
 * @param udpSourcePort UDP source port, default {@code 0xC000 | (localQpn & 0x3FFF)}.
 */
public record WorkerQueuePair(int localQpn, int qpn, int startPsn, int udpSourcePort)
{
}
