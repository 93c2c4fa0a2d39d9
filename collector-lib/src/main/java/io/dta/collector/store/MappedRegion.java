package io.dta.collector.store;

import org.agrona.concurrent.UnsafeBuffer;

import java.nio.file.Path;

/**
 * One region of a store: a file mapped into memory, read-write for the collector, read-only for queries.
 * <p>
 * The buffer is only valid until the owning {@link CollectorStore} is closed. A read-only region must never be
 * written through its buffer: the mapping is read-only and a write faults.
 */
public final class MappedRegion
{
    private final RegionDescriptor descriptor;
    private final Path file;
    private final UnsafeBuffer buffer;
    private final boolean writable;

    MappedRegion(final RegionDescriptor descriptor, final Path file, final UnsafeBuffer buffer, final boolean writable)
    {
        this.descriptor = descriptor;
        this.file = file;
        this.buffer = buffer;
        this.writable = writable;
    }

    /**
     * @return the region's description.
     */
    public RegionDescriptor descriptor()
    {
        return descriptor;
    }

    /**
     * @return the mapped file.
     */
    public Path file()
    {
        return file;
    }

    /**
     * @return the region's memory; offset 0 is the region's base address.
     */
    public UnsafeBuffer buffer()
    {
        return buffer;
    }

    /**
     * @return true if mapped read-write (the collector), false for a query.
     */
    public boolean writable()
    {
        return writable;
    }
}
