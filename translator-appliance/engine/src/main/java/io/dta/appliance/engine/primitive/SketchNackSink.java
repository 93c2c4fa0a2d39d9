package io.dta.appliance.engine.primitive;

/**
 * Where a {@link SketchMergeHandler}'s timer sends the NACKs it re-sends (docs/sketch.md): the handler keeps, per
 * switch with an open column gap, the addressing of the report that opened the gap, and hands it back here, so the
 * retried NACK is the frame the first one was, with the switch's next expected column.
 * <p>
 * VLAN tags travel packed in a long, as received, outer first: the outer tag (TPID in bits 63..48, TCI in bits
 * 47..32), then the inner tag (TPID in bits 31..16, TCI in bits 15..0); unused tags are 0. See
 * {@link #packVlanTag(int, int, int)}.
 */
@FunctionalInterface
public interface SketchNackSink
{
    /**
     * A sink that sends nothing (a handler used without an engine).
     */
    SketchNackSink NONE = (mac, ip, vlanTagCount, vlanTags, sketchId, switchId, epoch, column, nowNanos) -> false;

    /**
     * Sends one sketch NACK to a switch.
     *
     * @param mac          the switch's MAC (the report's Ethernet source), in the low 48 bits.
     * @param ip           the switch's IPv4 address (the report's source).
     * @param vlanTagCount VLAN tags of the report, 0..2.
     * @param vlanTags     the tags, packed as described above.
     * @param sketchId     the sketch.
     * @param switchId     the switch that must resend.
     * @param epoch        the epoch (unsigned 32-bit).
     * @param column       the first column to resend.
     * @param nowNanos     engine clock.
     * @return true when the frame went out; false when the output could not take it (counted by the sink).
     */
    boolean sendSketchNack(
        long mac, int ip, int vlanTagCount, long vlanTags, int sketchId, int switchId, long epoch, int column,
        long nowNanos);

    /**
     * Adds tag {@code index} to a packed tag stack.
     *
     * @param index 0 for the outer tag, 1 for the inner one.
     * @param tpid  the tag's TPID.
     * @param tci   the tag's whole TCI (PCP, DEI, VID).
     * @return the bits to OR into the packed stack.
     */
    static long packVlanTag(final int index, final int tpid, final int tci)
    {
        final long tag = ((long)(tpid & 0xFFFF) << 16) | (tci & 0xFFFF);
        return 0 == index ? tag << 32 : tag;
    }

    /**
     * @param vlanTags a packed tag stack.
     * @param index    0 for the outer tag, 1 for the inner one.
     * @return the tag's TPID.
     */
    static int vlanTpid(final long vlanTags, final int index)
    {
        return (int)(vlanTags >>> (0 == index ? 48 : 16)) & 0xFFFF;
    }

    /**
     * @param vlanTags a packed tag stack.
     * @param index    0 for the outer tag, 1 for the inner one.
     * @return the tag's TCI.
     */
    static int vlanTci(final long vlanTags, final int index)
    {
        return (int)(vlanTags >>> (0 == index ? 32 : 0)) & 0xFFFF;
    }
}
