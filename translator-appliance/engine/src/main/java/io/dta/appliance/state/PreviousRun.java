package io.dta.appliance.state;

import java.nio.file.Path;
import java.util.List;

/**
 * What a start found in the resume state file: the recorded lists and QPs to resume from, or none.
 *
 * @param path   the state file.
 * @param lists  the recorded lists; null when there is nothing to resume (no file, or {@code --fresh-lists}).
 * @param why    when {@code lists} is null, why (for the start-up line).
 * @param qps    the recorded static QPs (empty for a version 1 file, or when {@code lists} is null).
 * @param closed whether the previous writer marked the file closed (a clean stop): only then are PSNs resumed.
 */
public record PreviousRun(Path path, List<RecordedList> lists, String why, List<RecordedQp> qps, boolean closed)
{
    /**
     * Nothing about QPs: every QP starts at its configured start PSN.
     *
     * @param path  the state file.
     * @param lists the recorded lists, or null.
     * @param why   when {@code lists} is null, why.
     */
    public PreviousRun(final Path path, final List<RecordedList> lists, final String why)
    {
        this(path, lists, why, List.of(), false);
    }
}
