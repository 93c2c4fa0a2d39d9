package io.dta.collector.query.bench;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * Anonymous private memory from {@code mmap}, optionally advised to transparent huge pages
 * ({@code madvise(MADV_HUGEPAGE)}) before its first touch, as the reference collector backs its stores with huge
 * pages: random lookups over a large store then cost a DRAM access without a page walk. Zero-filled by the kernel.
 */
final class AnonymousMemory implements AutoCloseable
{
    private static final int PROT_READ_WRITE = 0x1 | 0x2;
    private static final int MAP_PRIVATE_ANONYMOUS = 0x02 | 0x20;
    private static final int MADV_HUGEPAGE = 14;

    private static final MethodHandle MMAP;
    private static final MethodHandle MADVISE;
    private static final MethodHandle MUNMAP;

    static
    {
        final Linker linker = Linker.nativeLinker();
        final ValueLayout.OfLong size = ValueLayout.JAVA_LONG;
        MMAP = linker.downcallHandle(linker.defaultLookup().findOrThrow("mmap"), FunctionDescriptor.of(
            ValueLayout.ADDRESS, ValueLayout.ADDRESS, size, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT,
            ValueLayout.JAVA_INT, size));
        MADVISE = linker.downcallHandle(linker.defaultLookup().findOrThrow("madvise"), FunctionDescriptor.of(
            ValueLayout.JAVA_INT, ValueLayout.ADDRESS, size, ValueLayout.JAVA_INT));
        MUNMAP = linker.downcallHandle(linker.defaultLookup().findOrThrow("munmap"), FunctionDescriptor.of(
            ValueLayout.JAVA_INT, ValueLayout.ADDRESS, size));
    }

    private final long address;
    private final long length;
    private final boolean hugePages;

    AnonymousMemory(final long length, final boolean hugePages)
    {
        try
        {
            final MemorySegment base = (MemorySegment)MMAP.invokeExact(MemorySegment.NULL, length, PROT_READ_WRITE,
                MAP_PRIVATE_ANONYMOUS, -1, 0L);
            if (-1L == base.address())
            {
                throw new IllegalStateException("mmap of " + length + " bytes failed");
            }
            this.address = base.address();
            this.length = length;
            this.hugePages = hugePages && 0 == (int)MADVISE.invokeExact(base, length, MADV_HUGEPAGE);
        }
        catch (final RuntimeException | Error ex)
        {
            throw ex;
        }
        catch (final Throwable ex)
        {
            throw new IllegalStateException(ex);
        }
    }

    long address()
    {
        return address;
    }

    /**
     * @return true when the kernel accepted the huge-page advice.
     */
    boolean hugePages()
    {
        return hugePages;
    }

    @Override
    public void close()
    {
        try
        {
            final int ignored = (int)MUNMAP.invokeExact(MemorySegment.ofAddress(address), length);
        }
        catch (final Throwable ex)
        {
            throw new IllegalStateException(ex);
        }
    }
}
