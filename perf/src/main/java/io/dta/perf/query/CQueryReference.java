package io.dta.perf.query;

import io.dta.collector.query.bench.TimedThreads;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The reference collector's Key-Write query in C ({@code perf/src/main/c/dta_qref.c}: first match in n order,
 * byte-wise Boost-style CRC, {@code % num_entries}), called through FFM over the same memory the Java lookups read.
 * The library is looked for at the system property {@code dta.qref}, then {@code perf/target/native} and
 * {@code target/native} under the working directory.
 */
public final class CQueryReference
{
    /** The library's file name. */
    public static final String LIBRARY_FILE = "libdta_qref.so";

    private static final MethodHandle KEYWRITE;
    private static final MethodHandle ALL_COPIES;

    static
    {
        final Path library = find();
        final SymbolLookup lookup = SymbolLookup.libraryLookup(library, Arena.global());
        final ValueLayout.OfLong u64 = ValueLayout.JAVA_LONG;
        KEYWRITE = Linker.nativeLinker().downcallHandle(lookup.findOrThrow("dta_qref_keywrite"),
            FunctionDescriptor.of(u64, ValueLayout.ADDRESS, u64, ValueLayout.ADDRESS, u64, ValueLayout.JAVA_INT,
                ValueLayout.JAVA_INT, ValueLayout.ADDRESS));
        ALL_COPIES = Linker.nativeLinker().downcallHandle(lookup.findOrThrow("dta_qref_all_copies"),
            FunctionDescriptor.of(u64, ValueLayout.ADDRESS, u64, ValueLayout.ADDRESS, u64, ValueLayout.JAVA_INT));
    }

    private CQueryReference()
    {
    }

    private static Path find()
    {
        final String property = System.getProperty("dta.qref");
        final Path[] candidates = {
            null == property ? null : Path.of(property),
            Path.of("perf", "target", "native", LIBRARY_FILE),
            Path.of("target", "native", LIBRARY_FILE) };
        for (final Path candidate : candidates)
        {
            if (null != candidate && Files.isRegularFile(candidate))
            {
                return candidate.toAbsolutePath();
            }
        }
        throw new IllegalStateException(LIBRARY_FILE + " not found: build the perf module (mvn -B -DskipTests -pl " +
            "perf -am package) or pass -Ddta.qref=/path/to/" + LIBRARY_FILE);
    }

    /**
     * One thread's reference lookups: a round is {@code ROUND} keys, one downcall.
     */
    public static final class Worker implements TimedThreads.Worker
    {
        private final long store;
        private final long slots;
        private final MemorySegment keys;
        private final int count;
        private final int redundancy;
        private final int fresh;
        private final boolean allCopies;
        private final MemorySegment found = Arena.ofAuto().allocate(8);
        private final int round;
        private int position;
        private long sum;

        /**
         * @param store      address of the store's slot 0 (8-byte slots).
         * @param slots      slots.
         * @param keys       keys (u32 each), a multiple of {@code round} long.
         * @param round      keys per round.
         * @param redundancy N.
         * @param fresh      reset the slot CRC for every copy (the algorithm as intended) instead of continuing it
         *                   (as written).
         */
        public Worker(final long store, final long slots, final long[] keys, final int round, final int redundancy,
            final boolean fresh)
        {
            this(store, slots, keys, round, redundancy, fresh, false);
        }

        /**
         * A worker that reads every copy's line and nothing else ({@code dta_qref_all_copies}): the memory work of a
         * lookup that reads all N copies, one key after another.
         *
         * @param store      address of the store's slot 0 (8-byte slots).
         * @param slots      slots.
         * @param keys       keys (u32 each), a multiple of {@code round} long.
         * @param round      keys per round.
         * @param redundancy N.
         * @return the worker.
         */
        public static Worker allCopies(final long store, final long slots, final long[] keys, final int round,
            final int redundancy)
        {
            return new Worker(store, slots, keys, round, redundancy, true, true);
        }

        private Worker(final long store, final long slots, final long[] keys, final int round, final int redundancy,
            final boolean fresh, final boolean allCopies)
        {
            this.store = store;
            this.slots = slots;
            this.keys = Arena.ofAuto().allocate(4L * keys.length, 64);
            for (int i = 0; i < keys.length; i++)
            {
                this.keys.setAtIndex(ValueLayout.JAVA_INT, i, (int)keys[i]);
            }
            this.count = keys.length;
            this.round = round;
            this.redundancy = redundancy;
            this.fresh = fresh ? 1 : 0;
            this.allCopies = allCopies;
        }

        @Override
        public long round()
        {
            try
            {
                sum += allCopies ?
                    (long)ALL_COPIES.invokeExact(MemorySegment.ofAddress(store), slots, keys.asSlice(4L * position),
                        (long)round, redundancy) :
                    (long)KEYWRITE.invokeExact(MemorySegment.ofAddress(store), slots, keys.asSlice(4L * position),
                        (long)round, redundancy, fresh, found);
            }
            catch (final Throwable ex)
            {
                throw new IllegalStateException(ex);
            }
            position = position + round == count ? 0 : position + round;
            return round;
        }

        /**
         * @return keys found in the last round.
         */
        public long lastFound()
        {
            return found.get(ValueLayout.JAVA_LONG, 0);
        }
    }
}
