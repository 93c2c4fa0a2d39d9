package io.dta.appliance.state;

import io.dta.collector.layout.ListLayout;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * What a run resumes, decided from what the previous run recorded, without any file.
 */
class ResumePlanTest
{
    private static final Path PATH = Path.of("/dev/shm/dta/translator.lists");
    private static final ListRegion SEQ = new ListRegion(1, "collectors[0].lists[1]",
        0x7f0000400000L, 24 * 20, ListLayout.Kind.SEQUENCED, 4);
    private static final ListRegion REF = new ListRegion(0, "collectors[0].lists[0]",
        0x7f0000300000L, 64, ListLayout.Kind.REFERENCE, 4);
    private static final StaticQp KW = new StaticQp("collectors[0].keyWrite", 0x539, 0x456, 0x0A000033, 0x100);
    private static final StaticQp KI = new StaticQp("collectors[0].keyIncrement", 0x53a, 0x457, 0x0A000033, 0x200);

    private static RecordedQp recorded(final StaticQp qp, final int nextPsn)
    {
        return new RecordedQp(qp.nameHash(), qp.localQpn(), qp.remoteQpn(), qp.collectorIp(), qp.startPsn(), nextPsn);
    }

    @Test
    void shouldStartEveryListAndQpAfreshWithoutAPreviousRun()
    {
        final PreviousRun none = new PreviousRun(PATH, null, "no list state file " + PATH + " yet" +
            ResumePlan.EVERY_LIST_FRESH);
        final ResumePlan plan = ResumePlan.of(none, List.of(REF, SEQ), List.of(KW));
        assertEquals(0, plan.position(0));
        assertEquals(1, plan.position(1));
        assertArrayEquals(new boolean[2], plan.resumed());
        assertArrayEquals(new int[] {0x100}, plan.startPsns());
        assertEquals(List.of(none.why()), plan.notes(), "the reason alone: no line per list or QP");
        assertEquals(List.of("no list state file " + PATH + " yet"), ResumePlan.of(none, List.of(), List.of()).notes(),
            "without lists there is no batch 1 to start from");
    }

    @Test
    void shouldResumeUnchangedListsAndNameEveryOtherOne()
    {
        final ListRegion moved = new ListRegion(1, null, 0x7f0000500000L, 24 * 20, ListLayout.Kind.SEQUENCED, 8);
        final ListRegion gone = new ListRegion(7, null, 0x7f0000700000L, 64, ListLayout.Kind.REFERENCE, 4);
        final PreviousRun previous = new PreviousRun(PATH, List.of(new RecordedList(REF, 12),
            new RecordedList(moved, 99), new RecordedList(gone, 3)), null);
        final ResumePlan plan = ResumePlan.of(previous, List.of(REF, SEQ), List.of());
        assertEquals(12, plan.position(0));
        assertEquals(1, plan.position(1));
        assertArrayEquals(new boolean[] {true, false}, plan.resumed());
        assertEquals(List.of(
            "list state " + PATH + ": 1 of 2 list(s) resume where the previous run stopped",
            "list 1 (collectors[0].lists[1]) starts from batch 1: its region changed: address 0x7f0000400000 (was " +
                "0x7f0000500000), batch size 4 (was 8)",
            "list 7 is no longer configured: its recorded position is forgotten"), plan.notes());
    }

    @Test
    void shouldRefuseAListConfiguredTwice()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> ResumePlan.of(new PreviousRun(PATH, null, "fresh"), List.of(SEQ, SEQ), List.of()));
        assertEquals("list 1 appears twice", ex.getMessage());
    }

    @Test
    void shouldResumeAPsnOnlyFromACleanStopForAnUnchangedQp()
    {
        final StaticQp moved = new StaticQp(KI.name(), KI.localQpn(), 0x999, KI.collectorIp(), KI.startPsn());
        final PreviousRun clean = new PreviousRun(PATH, List.of(), null,
            List.of(recorded(KW, 0xABCDE), recorded(moved, 0x42)), true);
        final ResumePlan plan = ResumePlan.of(clean, List.of(), List.of(KW, KI));
        assertArrayEquals(new int[] {0xABCDE, 0x200}, plan.startPsns());
        assertArrayEquals(new boolean[] {true, false}, plan.psnResumed());
        assertEquals(List.of("list state " + PATH + ": 0 of 0 list(s) resume where the previous run stopped",
            "1 of 2 static QP(s) resume at the PSN where the previous run stopped",
            "QP 0x53a (collectors[0].keyIncrement) starts at its configured startPsn 0x200: it changed: collector " +
                "QPN 0x457 (was 0x999)"), plan.notes());

        final PreviousRun crashed = new PreviousRun(PATH, List.of(), null, List.of(recorded(KW, 0xABCDE)), false);
        final ResumePlan afterCrash = ResumePlan.of(crashed, List.of(), List.of(KW));
        assertArrayEquals(new int[] {0x100}, afterCrash.startPsns());
        assertEquals("the previous run did not stop cleanly: every QP starts at its configured startPsn (the " +
            "collector's first ACK resynchronises it)", afterCrash.notes().get(1));

        final PreviousRun nothingRecorded = new PreviousRun(PATH, List.of(), null,
            List.of(recorded(KW, ResumeStateLayout.NO_PSN)), true);
        assertEquals("QP 0x539 (collectors[0].keyWrite) starts at its configured startPsn 0x100: the previous run " +
            "recorded no PSN for it", ResumePlan.of(nothingRecorded, List.of(), List.of(KW)).notes().get(2));

        final PreviousRun listsOnly = new PreviousRun(PATH, List.of(), null);
        assertEquals("the list state file records no QP PSNs: every QP starts at its configured startPsn (the " +
            "collector's first ACK resynchronises it)", ResumePlan.of(listsOnly, List.of(), List.of(KW)).notes()
            .get(1));
    }
}
