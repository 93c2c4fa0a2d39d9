package io.dta.collector.responder;

import io.dta.config.CollectorConfig;
import io.dta.config.RegionConfig;
import org.agrona.MutableDirectBuffer;

/**
 * Supplies the memory behind each configured region (a mapped store file, or a plain buffer in tests).
 */
@FunctionalInterface
public interface RegionMemory
{
    /**
     * @param collector the collector hosting the region.
     * @param region    the region.
     * @return a buffer of at least {@code region.length()} bytes whose offset 0 is the region's base address, or
     * null when the region is not hosted (its QP then does not exist and frames to it count as unknown QPN).
     */
    MutableDirectBuffer memory(CollectorConfig collector, RegionConfig region);
}
