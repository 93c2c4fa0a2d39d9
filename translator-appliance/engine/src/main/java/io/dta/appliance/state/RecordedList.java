package io.dta.appliance.state;

/**
 * A list's entry as read from a resume state file.
 *
 * @param region   the region it was recorded for (no name).
 * @param position the next batch sequence number (sequenced) or head slot (reference).
 */
public record RecordedList(ListRegion region, long position)
{
}
