package io.dta.config;

/**
 * A value or key of the document as a message shows it: whole when it is short, else its start and its length, so a
 * problem with a huge value stays one readable line.
 */
final class ShortText
{
    /** Longest text shown whole. */
    static final int MAX_SHOWN = 80;
    /** How much of a longer text is shown. */
    static final int SHOWN_START = 60;

    private ShortText()
    {
    }

    /**
     * @param text a value or key as written.
     * @return it, or its first {@value #SHOWN_START} characters, an ellipsis and how many characters it has.
     */
    static String of(final String text)
    {
        if (text.length() <= MAX_SHOWN)
        {
            return text;
        }
        // A surrogate pair is not cut in two.
        final int end = Character.isHighSurrogate(text.charAt(SHOWN_START - 1)) ? SHOWN_START - 1 : SHOWN_START;
        return text.substring(0, end) + "... (" + text.length() + " characters)";
    }
}
