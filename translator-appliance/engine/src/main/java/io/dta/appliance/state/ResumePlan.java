package io.dta.appliance.state;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a run resumes from what the previous run recorded: each list's starting position, each static QP's starting
 * PSN, and one line per decision the operator should hear of (a list or QP that starts over although the previous
 * run recorded it, and why; a recorded list no longer configured). A list resumes when the previous run recorded
 * it with the same region; a QP when the previous run stopped cleanly and recorded it unchanged, with a next PSN.
 */
final class ResumePlan
{
    /** The tail of a note that says every list starts over. */
    static final String EVERY_LIST_FRESH = ": every list starts from batch 1";

    private final ListRegion[] regions;
    private final long[] positions;
    private final boolean[] resumed;
    private final StaticQp[] qps;
    private final int[] startPsns;
    private final boolean[] psnResumed;
    private final List<String> notes = new ArrayList<>();

    private ResumePlan(final List<ListRegion> lists, final List<StaticQp> qps)
    {
        regions = lists.toArray(new ListRegion[0]);
        positions = new long[regions.length];
        resumed = new boolean[regions.length];
        this.qps = qps.toArray(new StaticQp[0]);
        startPsns = new int[this.qps.length];
        psnResumed = new boolean[this.qps.length];
    }

    /**
     * @param previous what the previous run left ({@link ResumeStateReader#read}).
     * @param lists    the run's lists, in configuration order.
     * @param qps      the run's static QPs, in configuration order.
     * @return the plan.
     * @throws IllegalArgumentException when a list id appears twice.
     */
    static ResumePlan of(final PreviousRun previous, final List<ListRegion> lists, final List<StaticQp> qps)
    {
        final ResumePlan plan = new ResumePlan(lists, qps);
        plan.planLists(previous);
        plan.planQps(previous);
        return plan;
    }

    ListRegion[] regions()
    {
        return regions;
    }

    long position(final int index)
    {
        return positions[index];
    }

    boolean[] resumed()
    {
        return resumed;
    }

    StaticQp[] qps()
    {
        return qps;
    }

    int[] startPsns()
    {
        return startPsns;
    }

    boolean[] psnResumed()
    {
        return psnResumed;
    }

    List<String> notes()
    {
        return List.copyOf(notes);
    }

    private void planLists(final PreviousRun previous)
    {
        final Map<Long, RecordedList> recorded = new HashMap<>();
        if (null != previous.lists())
        {
            for (final RecordedList r : previous.lists())
            {
                recorded.put(r.region().listId(), r);
            }
        }
        int resumedCount = 0;
        final Set<Long> configured = new HashSet<>();
        for (int i = 0; i < regions.length; i++)
        {
            final ListRegion region = regions[i];
            if (!configured.add(region.listId()))
            {
                throw new IllegalArgumentException("list " + region.listId() + " appears twice");
            }
            final RecordedList r = recorded.get(region.listId());
            positions[i] = region.initialPosition();
            if (null != r && region.sameAs(r.region()))
            {
                positions[i] = r.position();
                resumed[i] = true;
                resumedCount++;
            }
            else if (null != previous.lists())
            {
                notes.add("list " + region.listId() + " (" + region.name() + ") starts from batch 1: " +
                    (null == r ? "it is not in the list state file" : "its region changed: " + region.differences(
                    r.region())));
            }
        }
        summariseLists(previous, configured, resumedCount);
    }

    private void summariseLists(final PreviousRun previous, final Set<Long> configured, final int resumedCount)
    {
        if (null != previous.lists())
        {
            for (final RecordedList r : previous.lists())
            {
                if (!configured.contains(r.region().listId()))
                {
                    notes.add("list " + r.region().listId() + " is no longer configured: its recorded position " +
                        "is forgotten");
                }
            }
            notes.addFirst("list state " + previous.path() + ": " + resumedCount + " of " + regions.length +
                " list(s) resume where the previous run stopped");
        }
        else
        {
            // A configuration without lists has nothing to start from batch 1: the note says only what happened.
            notes.addFirst(0 == regions.length ? previous.why().replace(EVERY_LIST_FRESH, "") : previous.why());
        }
    }

    /**
     * Decides each QP's start PSN and says, one line each, why a QP does not resume a recorded PSN (nothing when
     * there was no previous file or it was ignored: the lists' line says so).
     */
    private void planQps(final PreviousRun previous)
    {
        for (int i = 0; i < qps.length; i++)
        {
            startPsns[i] = qps[i].startPsn();
        }
        if (null == previous.lists() || 0 == qps.length)
        {
            return;
        }
        if (previous.qps().isEmpty())
        {
            notes.add("the list state file records no QP PSNs: every QP starts at its configured startPsn (the " +
                "collector's first ACK resynchronises it)");
            return;
        }
        if (!previous.closed())
        {
            notes.add("the previous run did not stop cleanly: every QP starts at its configured startPsn (the " +
                "collector's first ACK resynchronises it)");
            return;
        }
        final Map<Integer, RecordedQp> recorded = new HashMap<>();
        for (final RecordedQp r : previous.qps())
        {
            recorded.put(r.localQpn(), r);
        }
        final List<String> qpLines = new ArrayList<>();
        int resumedCount = 0;
        for (int i = 0; i < qps.length; i++)
        {
            final StaticQp qp = qps[i];
            final RecordedQp r = recorded.get(qp.localQpn());
            if (null != r && qp.sameAs(r) && ResumeStateLayout.NO_PSN != r.nextPsn())
            {
                startPsns[i] = r.nextPsn();
                psnResumed[i] = true;
                resumedCount++;
            }
            else
            {
                qpLines.add(String.format("QP 0x%x (%s) starts at its configured startPsn 0x%x: %s", qp.localQpn(),
                    qp.name(), qp.startPsn(), null == r ? "it is not in the list state file" :
                    !qp.sameAs(r) ? "it changed: " + qp.differences(r) : "the previous run recorded no PSN for it"));
            }
        }
        notes.add(resumedCount + " of " + qps.length + " static QP(s) resume at the PSN where the previous run " +
            "stopped");
        notes.addAll(qpLines);
    }
}
