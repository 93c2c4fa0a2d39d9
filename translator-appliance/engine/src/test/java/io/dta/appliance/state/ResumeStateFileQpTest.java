package io.dta.appliance.state;

import io.dta.collector.layout.ListLayout;
import io.dta.config.ApplianceConfig;
import io.dta.config.ConfigLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.UnaryOperator;
import java.util.zip.CRC32;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The static QPs' PSNs in the list state file: recorded at a clean stop, resumed only from a file closed by its
 * writer and only for an unchanged QP.
 */
class ResumeStateFileQpTest
{
    private static final ListRegion SEQ = new ListRegion(1, "collectors[0].lists[1]",
        0x7f0000400000L, 24 * 20, ListLayout.Kind.SEQUENCED, 4);
    private static final StaticQp KW = new StaticQp("collectors[0].keyWrite", 0x539, 0x456,
        0x0A000033, 0x100);
    private static final StaticQp LIST = new StaticQp("collectors[0].lists[1]", 0x53d, 0x45a,
        0x0A000033, 0xFFFFF0);

    @TempDir
    Path dir;

    private Path file()
    {
        return dir.resolve("translator.lists");
    }

    private ResumeStateFile open(final List<StaticQp> qps)
    {
        return ResumeStateFile.create(ResumeStateFile.read(file(), false), List.of(SEQ), qps, 1);
    }

    @Test
    void shouldRecordPsnsAtACleanCloseAndResumeThemAcrossTheWrap()
    {
        try (ResumeStateFile f = open(List.of(KW, LIST)))
        {
            assertEquals(0x100, f.startPsn(0), "no previous file: the configured PSN");
            assertEquals(0xFFFFF0, f.startPsn(1));
            assertFalse(f.psnResumed(0) || f.psnResumed(1));
            assertEquals(1, f.notes().size(), "no line per QP without a previous file: " + f.notes());
        }
        final long seed = 0x95EEDL;
        final SplittableRandom random = new SplittableRandom(seed);
        for (int round = 0; round < 2000; round++)
        {
            final int kwPsn = switch (round)
            {
                case 0 -> 0xFFFFFF;
                case 1 -> 0;
                default -> random.nextInt(1 << 24);
            };
            // The sender's next PSN is always 24 bits; one past the top wraps to 0 when recorded.
            final int listPsn = 2 == round ? 1 << 24 : random.nextInt(1 << 24);
            try (ResumeStateFile f = open(List.of(KW, LIST)))
            {
                f.recordNextPsn(KW.localQpn(), kwPsn);
                f.recordNextPsn(LIST.localQpn(), listPsn);
                f.recordNextPsn(0x777, 5);
            }
            final PreviousRun previous = ResumeStateFile.read(file(), false);
            assertTrue(previous.closed());
            try (ResumeStateFile f = ResumeStateFile.create(previous, List.of(SEQ), List.of(KW, LIST), 1))
            {
                final String where = "seed " + seed + " round " + round;
                assertTrue(f.psnResumed(0) && f.psnResumed(1), where + " " + f.notes());
                assertEquals(kwPsn, f.startPsn(f.qpIndexOf(KW.localQpn())), where);
                assertEquals(listPsn & 0xFFFFFF, f.startPsn(f.qpIndexOf(LIST.localQpn())), where);
                assertEquals("2 of 2 static QP(s) resume at the PSN where the previous run stopped", f.notes().get(1),
                    where);
                assertEquals(2, f.notes().size(), where);
            }
        }
    }

    @Test
    void shouldStartAQpWithoutARecordedPsnAtItsConfiguredOne()
    {
        try (ResumeStateFile f = open(List.of(KW, LIST)))
        {
            f.recordNextPsn(KW.localQpn(), 0x1234);
        }
        try (ResumeStateFile f = open(List.of(KW, LIST)))
        {
            assertTrue(f.psnResumed(0));
            assertEquals(0x1234, f.startPsn(0));
            assertFalse(f.psnResumed(1));
            assertEquals(0xFFFFF0, f.startPsn(1));
            assertEquals(List.of("1 of 2 static QP(s) resume at the PSN where the previous run stopped",
                "QP 0x53d (collectors[0].lists[1]) starts at its configured startPsn 0xfffff0: the previous run " +
                "recorded no PSN for it"), f.notes().subList(1, f.notes().size()));
        }
    }

    @Test
    void shouldNotResumePsnsFromAFileItsWriterNeverClosed() throws IOException
    {
        try (ResumeStateFile f = open(List.of(KW)))
        {
            ResumeStateFile.storePosition(f.buffer(), f.positionOffset(0), 77);
            f.recordNextPsn(KW.localQpn(), 0x4242);
        }
        // A writer that died: never marked closed, and no longer running.
        final byte[] bytes = Files.readAllBytes(file());
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putLong(ResumeStateLayout.CLOSED_OFFSET, 0)
            .putLong(ResumeStateLayout.PID_OFFSET, Integer.MAX_VALUE - 1);
        Files.write(file(), bytes);
        final PreviousRun previous = ResumeStateFile.read(file(), false);
        assertFalse(previous.closed());
        try (ResumeStateFile f = ResumeStateFile.create(previous, List.of(SEQ), List.of(KW), 1))
        {
            assertTrue(f.resumed(0), "lists resume as before");
            assertEquals(77, f.position(0));
            assertFalse(f.psnResumed(0));
            assertEquals(KW.startPsn(), f.startPsn(0));
            assertEquals("the previous run did not stop cleanly: every QP starts at its configured startPsn (the " +
                "collector's first ACK resynchronises it)", f.notes().get(1));
        }
    }

    @Test
    void shouldStartAChangedQpAtItsConfiguredStartPsnAndSaySo()
    {
        final List<UnaryOperator<StaticQp>> changes = List.of(
            q -> new StaticQp("collectors[1].keyWrite", q.localQpn(), q.remoteQpn(), q.collectorIp(),
                q.startPsn()),
            q -> new StaticQp(q.name(), q.localQpn(), q.remoteQpn() + 1, q.collectorIp(), q.startPsn()),
            q -> new StaticQp(q.name(), q.localQpn(), q.remoteQpn(), q.collectorIp() + 1, q.startPsn()),
            q -> new StaticQp(q.name(), q.localQpn(), q.remoteQpn(), q.collectorIp(), q.startPsn() + 1),
            q -> new StaticQp(q.name(), q.localQpn() + 0x100, q.remoteQpn(), q.collectorIp(), q.startPsn()));
        final List<String> words = List.of(
            "it changed: another key path",
            "it changed: collector QPN 0x457 (was 0x456)",
            "it changed: collector IP 10.0.0.52 (was 10.0.0.51)",
            "it changed: startPsn 0x101 (was 0x100)",
            "it is not in the list state file");
        for (int c = 0; c < changes.size(); c++)
        {
            try (ResumeStateFile f = open(List.of(KW, LIST)))
            {
                f.recordNextPsn(KW.localQpn(), 0x2000);
                f.recordNextPsn(LIST.localQpn(), 0x3000);
            }
            final StaticQp changed = changes.get(c).apply(KW);
            try (ResumeStateFile f = open(List.of(changed, LIST)))
            {
                assertFalse(f.psnResumed(0), words.get(c));
                assertEquals(changed.startPsn(), f.startPsn(0));
                assertTrue(f.psnResumed(1));
                assertEquals(0x3000, f.startPsn(1));
                assertEquals(List.of("1 of 2 static QP(s) resume at the PSN where the previous run stopped",
                    String.format("QP 0x%x (%s) starts at its configured startPsn 0x%x: %s", changed.localQpn(),
                    changed.name(), changed.startPsn(), words.get(c))), f.notes().subList(1, f.notes().size()));
            }
        }
    }

    @Test
    void shouldResumeNothingWithFreshLists()
    {
        try (ResumeStateFile f = open(List.of(KW)))
        {
            f.recordNextPsn(KW.localQpn(), 0x2000);
        }
        try (ResumeStateFile f = ResumeStateFile.create(ResumeStateFile.read(file(), true), List.of(SEQ), List.of(KW), 1))
        {
            assertFalse(f.psnResumed(0));
            assertEquals(KW.startPsn(), f.startPsn(0));
        }
    }

    @Test
    void shouldReadAVersion1FileAsListsWithoutPsns() throws IOException
    {
        final byte[] bytes = new byte[ResumeStateLayout.HEADER_LENGTH + ResumeStateLayout.ENTRY_LENGTH];
        final ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        b.putLong(ResumeStateLayout.MAGIC_OFFSET, ResumeStateLayout.MAGIC).putInt(ResumeStateLayout.VERSION_OFFSET, 1)
            .putInt(ResumeStateLayout.ENTRY_LENGTH_OFFSET, ResumeStateLayout.ENTRY_LENGTH)
            .putInt(ResumeStateLayout.COUNT_OFFSET, 1).putLong(ResumeStateLayout.CLOSED_OFFSET, 5);
        final int entry = ResumeStateLayout.HEADER_LENGTH;
        b.putLong(entry + ResumeStateLayout.LIST_ID_OFFSET, SEQ.listId())
            .putLong(entry + ResumeStateLayout.ADDRESS_OFFSET, SEQ.address())
            .putLong(entry + ResumeStateLayout.LENGTH_OFFSET, SEQ.length())
            .putInt(entry + ResumeStateLayout.LAYOUT_OFFSET, ResumeStateLayout.LAYOUT_SEQUENCED)
            .putInt(entry + ResumeStateLayout.BATCH_SIZE_OFFSET, SEQ.batchSize())
            .putLong(entry + ResumeStateLayout.POSITION_OFFSET, 99);
        final CRC32 crc = new CRC32();
        crc.update(bytes, 0, ResumeStateLayout.CRC_OFFSET);
        crc.update(bytes, entry, ResumeStateLayout.ENTRY_STATIC_LENGTH);
        b.putInt(ResumeStateLayout.CRC_OFFSET, (int)crc.getValue());
        Files.write(file(), bytes);

        try (ResumeStateFile f = open(List.of(KW)))
        {
            assertTrue(f.resumed(0));
            assertEquals(99, f.position(0));
            assertFalse(f.psnResumed(0));
            assertEquals(KW.startPsn(), f.startPsn(0));
            assertEquals("the list state file records no QP PSNs: every QP starts at its configured startPsn (the " +
                "collector's first ACK resynchronises it)", f.notes().get(1));
        }
        assertEquals(ResumeStateLayout.VERSION, ByteBuffer.wrap(Files.readAllBytes(file())).order(ByteOrder.LITTLE_ENDIAN)
            .getInt(ResumeStateLayout.VERSION_OFFSET), "rewritten in the current version");
    }

    @Test
    void shouldRefuseDamagedQpEntriesButNotChangedPsns() throws IOException
    {
        try (ResumeStateFile f = open(List.of(KW, LIST)))
        {
            f.recordNextPsn(KW.localQpn(), 0x2000);
        }
        final byte[] whole = Files.readAllBytes(file());
        final int qps = ResumeStateLayout.HEADER_LENGTH + ResumeStateLayout.ENTRY_LENGTH;
        assertEquals(qps + 2 * ResumeStateLayout.QP_ENTRY_LENGTH, whole.length);
        final SplittableRandom random = new SplittableRandom(0xDA7AL);
        int checked = 0;
        for (int offset = ResumeStateLayout.QP_COUNT_OFFSET; offset < whole.length; offset++)
        {
            final boolean covered = offset < ResumeStateLayout.HEADER_LENGTH ||
                (offset >= qps && (offset - qps) % ResumeStateLayout.QP_ENTRY_LENGTH <
                ResumeStateLayout.QP_ENTRY_STATIC_LENGTH);
            if (!covered)
            {
                continue;
            }
            final byte[] damaged = whole.clone();
            damaged[offset] ^= (byte)(1 + random.nextInt(255));
            Files.write(file(), damaged);
            final int at = offset;
            final IllegalStateException ex = assertThrows(IllegalStateException.class,
                () -> ResumeStateFile.read(file(), false), "seed 0xDA7A, byte " + at);
            assertTrue(ex.getMessage().endsWith(ResumeStateFile.WAY_OUT), ex.getMessage());
            checked++;
        }
        assertEquals(8 + 2 * ResumeStateLayout.QP_ENTRY_STATIC_LENGTH, checked);

        // A PSN is not covered (a clean stop stores it), but one of more than 24 bits is impossible.
        final byte[] changed = whole.clone();
        final ByteBuffer b = ByteBuffer.wrap(changed).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(qps + ResumeStateLayout.QP_NEXT_PSN_OFFSET, 0xFFFFFF);
        Files.write(file(), changed);
        assertEquals(0xFFFFFF, ResumeStateFile.read(file(), false).qps().getFirst().nextPsn());
        b.putInt(qps + ResumeStateLayout.QP_NEXT_PSN_OFFSET, 1 << 24);
        Files.write(file(), changed);
        final IllegalStateException ex = assertThrows(IllegalStateException.class,
            () -> ResumeStateFile.read(file(), false));
        assertTrue(ex.getMessage().contains("QP 0x539 has next PSN 0x1000000, more than 24 bits"), ex.getMessage());
    }

    @Test
    void shouldLeaveNegotiatedRegionsOut()
    {
        final ApplianceConfig config = ConfigLoader.load("""
            translator: {mac: "02:00:0a:00:00:65", ip: 10.0.0.101}
            collectors:
              - name: a
                mac: "02:00:0a:00:00:33"
                ip: 10.0.0.51
                keyWrite: {localQpn: 0x539, qpn: 0x456, rkey: 0x1234, address: 0x7f0000000000, length: 4096,
                           slotSize: 8, startPsn: 7}
                postcards: {localQpn: 0x53b, servicePort: 4791, length: 8192}
            """);
        assertEquals(List.of(new StaticQp("collectors[0].keyWrite", 0x539, 0x456, 0x0A000033, 7)),
            StaticQp.allOf(config));
    }
}
