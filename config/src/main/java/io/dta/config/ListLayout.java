package io.dta.config;

/**
 * Memory layout of an Append list.
 */
public enum ListLayout
{
    /**
     * Our layout (written {@code sequenced}; the default): entries carry what the query side needs to tell new
     * entries from old ones and to detect being lapped; no write crosses the end of the region.
     */
    SEQUENCED,

    /**
     * The reference's bare ring of 4-byte LE entries (written {@code reference}), byte-compatible with the
     * original collector; the entry count must be a multiple of the batch size.
     */
    REFERENCE
}
