package io.dta.collector.store;

import io.dta.config.ApplianceConfig;
import io.dta.config.ConfigDefaults;
import io.dta.config.ConfigLoader;
import io.dta.config.CollectorConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class CollectorStoreTest
{
    @TempDir
    Path dir;

    private final ApplianceConfig config = ConfigDefaults.load();
    private final CollectorConfig collector = config.collectors().get(0);

    @Test
    void shouldCreateOneFilePerRegionSizedToTheRegionWithAManifest() throws Exception
    {
        try (CollectorStore store = CollectorStore.create(dir, config, collector))
        {
            assertEquals(collector.regions().size(), store.regions().size());
            for (final MappedRegion region : store.regions())
            {
                assertTrue(Files.isRegularFile(region.file()));
                assertEquals(region.descriptor().region().length(), Files.size(region.file()));
                assertEquals(region.descriptor().region().length(), region.buffer().capacity());
                assertTrue(region.writable());
            }
            assertTrue(Files.exists(dir.resolve(collector.name()).resolve("keyWrite.region")));
            final String manifest = Files.readString(dir.resolve(collector.name()).resolve(CollectorStore.MANIFEST));
            assertTrue(manifest.contains("region.keyWrite.address=0x7f0000000000"), manifest);
            assertTrue(manifest.contains("region.list-0.layout=layout=REFERENCE"), manifest);
        }
    }

    @Test
    void shouldLetAReadOnlyMappingSeeTheWritersStoresLive() throws Exception
    {
        try (CollectorStore writer = CollectorStore.create(dir, config, collector);
            CollectorStore reader = CollectorStore.openReadOnly(dir, config, collector))
        {
            final MappedRegion w = writer.region(RegionType.KEY_INCREMENT, 0);
            final MappedRegion r = reader.region(RegionType.KEY_INCREMENT, 0);
            assertFalse(r.writable());
            assertEquals(0, r.buffer().getLong(64));
            w.buffer().putLong(64, 0x1122334455667788L, ByteOrder.LITTLE_ENDIAN);
            assertEquals(0x1122334455667788L, r.buffer().getLong(64, ByteOrder.LITTLE_ENDIAN));
            assertNotNull(writer.memory(collector.keyIncrement().region()));
        }
    }

    @Test
    void shouldRecreateAStoreZeroFilled() throws Exception
    {
        try (CollectorStore writer = CollectorStore.create(dir, config, collector))
        {
            writer.region(RegionType.KEY_WRITE, 0).buffer().putLong(0, -1L);
        }
        try (CollectorStore writer = CollectorStore.create(dir, config, collector))
        {
            assertEquals(0, writer.region(RegionType.KEY_WRITE, 0).buffer().getLong(0));
        }
    }

    /**
     * A second collector (live, offline or a demo) given the store of a running one used to truncate its region files
     * in place: the running collector's memory turned to zeros under it. The writer's lock now refuses it, and the
     * holder's memory is untouched; once the holder has gone the store can be created again.
     */
    @Test
    void shouldRefuseAStoreAnotherProcessHoldsAndLeaveItsMemoryAlone() throws Exception
    {
        final Path holderErr = Files.createTempFile("store-holder", ".err");
        final Process holder = new ProcessBuilder(ProcessHandle.current().info().command().orElseThrow(),
            "--enable-native-access=ALL-UNNAMED", "--add-opens", "java.base/jdk.internal.misc=ALL-UNNAMED", "-cp",
            System.getProperty("java.class.path"),
            StoreHolder.class.getName(), dir.toString()).redirectError(holderErr.toFile()).start();
        try
        {
            final BufferedReader lines = new BufferedReader(new InputStreamReader(holder.getInputStream(),
                StandardCharsets.US_ASCII));
            assertEquals("ready", lines.readLine(), () -> "the holder created the store: " + read(holderErr));

            final StoreException ex = assertThrows(StoreException.class,
                () -> CollectorStore.create(dir, config, collector));
            assertTrue(ex.getMessage().contains("in use by a running collector"), ex.getMessage());
            try (CollectorStore reader = CollectorStore.openReadOnly(dir, config, collector))
            {
                assertEquals(StoreHolder.MARKER,
                    reader.region(RegionType.KEY_WRITE, 0).buffer().getLong(0, ByteOrder.LITTLE_ENDIAN),
                    "the running collector's memory is untouched");
            }
        }
        finally
        {
            holder.getOutputStream().close();
            assertTrue(holder.waitFor(30, TimeUnit.SECONDS));
        }
        assertEquals(0, holder.exitValue(), () -> read(holderErr));
        Files.delete(holderErr);
        try (CollectorStore writer = CollectorStore.create(dir, config, collector))
        {
            assertEquals(0, writer.region(RegionType.KEY_WRITE, 0).buffer().getLong(0), "recreated zero-filled");
        }
    }

    private static String read(final Path file)
    {
        try
        {
            return Files.readString(file);
        }
        catch (final java.io.IOException ex)
        {
            return ex.toString();
        }
    }

    @Test
    void shouldRefuseASecondWriterInTheSameProcessUntilTheFirstIsClosed() throws Exception
    {
        try (CollectorStore first = CollectorStore.create(dir, config, collector))
        {
            assertNotNull(first);
            final StoreException ex = assertThrows(StoreException.class,
                () -> CollectorStore.create(dir, config, collector));
            assertTrue(ex.getMessage().contains("in use"), ex.getMessage());
        }
        CollectorStore.create(dir, config, collector).close();
    }

    /**
     * A live collector reserves its store before its EAL and port start and creates it only once they are up: the
     * reservation holds the writer's lock but leaves the previous run's data alone, and closing it unused (a failed
     * start) leaves the store exactly as it was and free again.
     */
    @Test
    void shouldLockButNotTouchAReservedStoreUntilItIsCreated() throws Exception
    {
        try (CollectorStore writer = CollectorStore.create(dir, config, collector))
        {
            writer.region(RegionType.KEY_WRITE, 0).buffer().putLong(8, 0x0102030405060708L, ByteOrder.LITTLE_ENDIAN);
        }
        final Path keyWrite = dir.resolve(collector.name()).resolve("keyWrite.region");
        final byte[] before = Files.readAllBytes(keyWrite);
        final String manifest = Files.readString(dir.resolve(collector.name()).resolve(CollectorStore.MANIFEST));

        final CollectorStore.Reservation reservation = CollectorStore.reserve(dir, config, collector);
        assertEquals(collector, reservation.collector());
        final StoreException held = assertThrows(StoreException.class,
            () -> CollectorStore.create(dir, config, collector));
        assertTrue(held.getMessage().contains("in use"), held.getMessage());
        reservation.close();
        reservation.close();
        assertThrows(IllegalStateException.class, reservation::create);

        assertArrayEquals(before, Files.readAllBytes(keyWrite), "a reservation closed unused leaves the data");
        assertEquals(manifest, Files.readString(dir.resolve(collector.name()).resolve(CollectorStore.MANIFEST)));
        try (CollectorStore reader = CollectorStore.openReadOnly(dir, config, collector))
        {
            assertEquals(0x0102030405060708L,
                reader.region(RegionType.KEY_WRITE, 0).buffer().getLong(8, ByteOrder.LITTLE_ENDIAN));
        }

        try (CollectorStore.Reservation again = CollectorStore.reserve(dir, config, collector))
        {
            try (CollectorStore writer = again.create())
            {
                assertEquals(0, writer.region(RegionType.KEY_WRITE, 0).buffer().getLong(8), "created zero-filled");
                assertThrows(IllegalStateException.class, again::create);
                assertThrows(StoreException.class, () -> CollectorStore.create(dir, config, collector),
                    "the created store holds the lock");
            }
        }
        CollectorStore.create(dir, config, collector).close();
    }

    @Test
    void shouldRefuseAMissingStore()
    {
        final StoreException ex = assertThrows(StoreException.class,
            () -> CollectorStore.openReadOnly(dir, config, collector));
        assertTrue(ex.getMessage().contains("missing"), ex.getMessage());
    }

    @Test
    void shouldRefuseAStoreWrittenWithAnotherConfiguration() throws Exception
    {
        CollectorStore.create(dir, config, collector).close();
        final String other = ConfigDefaults.yaml().replace("length: 65536          # 8192 slots of 8 bytes",
            "length: 32768");
        final ApplianceConfig changed = ConfigLoader.load(other);
        final StoreException ex = assertThrows(StoreException.class,
            () -> CollectorStore.openReadOnly(dir, changed, changed.collectors().get(0)));
        assertTrue(ex.getMessage().contains("region.keyWrite.length"), ex.getMessage());
    }

    @Test
    void shouldRefuseATruncatedRegionFile() throws Exception
    {
        CollectorStore.create(dir, config, collector).close();
        final Path file = dir.resolve(collector.name()).resolve("postcards.region");
        Files.write(file, new byte[10]);
        final StoreException ex = assertThrows(StoreException.class,
            () -> CollectorStore.openReadOnly(dir, config, collector));
        assertTrue(ex.getMessage().contains("postcards.region"), ex.getMessage());
    }

    @Test
    void shouldSayInWordsWhyAStoreCannotBeCreated() throws Exception
    {
        final String name = collector.name();
        // /proc refuses to create a directory even for root: the exception's message was only the path.
        assumeTrue(Files.isDirectory(Path.of("/proc/self")), "a Linux /proc");
        assertEquals("cannot create store /proc/x/" + name + ": /proc/x: no such file or directory",
            assertThrows(StoreException.class, () -> CollectorStore.create(Path.of("/proc/x"), config, collector))
                .getMessage());

        // A file where the store root should be: was "... : F/NAME: Not a directory", the path twice.
        final Path file = Files.writeString(dir.resolve("file"), "x");
        assertEquals("cannot create store " + file.resolve(name) + ": not a directory",
            assertThrows(StoreException.class, () -> CollectorStore.create(file, config, collector)).getMessage());

        // A file where the collector's directory should be: was "cannot create store D: D".
        final Path root = Files.createDirectories(dir.resolve("root"));
        Files.writeString(root.resolve(name), "x");
        assertEquals("cannot create store " + root.resolve(name) + ": exists and is not a directory",
            assertThrows(StoreException.class, () -> CollectorStore.create(root, config, collector)).getMessage());

        // A directory where a region file should be.
        final Path other = dir.resolve("other");
        final Path region = Files.createDirectories(other.resolve(name).resolve("keyWrite.region"));
        assertEquals("cannot create store " + other.resolve(name) + ": " + region + ": is a directory",
            assertThrows(StoreException.class, () -> CollectorStore.create(other, config, collector)).getMessage());
    }

    @Test
    void shouldSayInWordsWhyAStoreCannotBeRead() throws Exception
    {
        final String name = collector.name();
        // A file where the store root should be: was "no store ...: manifest.properties is missing".
        final Path file = Files.writeString(dir.resolve("file"), "x");
        final Path manifest = file.resolve(name).resolve(CollectorStore.MANIFEST);
        assertEquals("cannot read " + manifest + ": not a directory",
            assertThrows(StoreException.class, () -> CollectorStore.openReadOnly(file, config, collector))
                .getMessage());

        // A directory where the manifest should be: was "is missing" too.
        Files.createDirectories(dir.resolve(name).resolve(CollectorStore.MANIFEST));
        assertEquals("cannot read " + dir.resolve(name).resolve(CollectorStore.MANIFEST) + ": is a directory",
            assertThrows(StoreException.class, () -> CollectorStore.openReadOnly(dir, config, collector))
                .getMessage());

        // A directory where a region file should be: was "region file F is missing".
        final Path other = dir.resolve("other");
        CollectorStore.create(other, config, collector).close();
        final Path region = other.resolve(name).resolve("postcards.region");
        Files.delete(region);
        Files.createDirectory(region);
        assertEquals("cannot map store " + other.resolve(name) + ": " + region + ": is a directory",
            assertThrows(StoreException.class, () -> CollectorStore.openReadOnly(other, config, collector))
                .getMessage());

        // A manifest that is no properties file: was Java's "Malformed \\uxxxx encoding.".
        final Path broken = dir.resolve("broken");
        CollectorStore.create(broken, config, collector).close();
        final Path brokenManifest = broken.resolve(name).resolve(CollectorStore.MANIFEST);
        Files.writeString(brokenManifest, "region.keyWrite.address=\\u12G4\n");
        assertEquals("cannot read " + brokenManifest + ": not a store manifest (a \\u escape that is not four " +
            "hexadecimal digits)",
            assertThrows(StoreException.class, () -> CollectorStore.openReadOnly(broken, config, collector))
                .getMessage());
    }
}
