package io.dta.config;

/**
 * Syntax of a configuration document. Both carry the same schema.
 */
public enum ConfigFormat
{
    /**
     * YAML (the usual form, see {@code translator.yaml}).
     */
    YAML,

    /**
     * JSON.
     */
    JSON;

    /**
     * Format from a file name: {@code .json} is JSON, {@code .yaml}/{@code .yml} are YAML, anything else is
     * {@code null} so the caller sniffs the content.
     *
     * @param fileName the file name.
     * @return the format or {@code null} when the extension says nothing.
     */
    public static ConfigFormat forFileName(final String fileName)
    {
        final String lower = fileName.toLowerCase(java.util.Locale.ROOT);
        if (lower.endsWith(".json"))
        {
            return JSON;
        }
        if (lower.endsWith(".yaml") || lower.endsWith(".yml"))
        {
            return YAML;
        }
        return null;
    }

    /**
     * Guess the format from the content: a document whose first significant character opens a JSON object is
     * JSON, anything else YAML (YAML being a superset, a wrong guess still parses).
     *
     * @param content the document.
     * @return the guessed format.
     */
    public static ConfigFormat sniff(final String content)
    {
        for (int i = 0; i < content.length(); i++)
        {
            final char c = content.charAt(i);
            if (!Character.isWhitespace(c) && c != '\uFEFF')
            {
                return c == '{' ? JSON : YAML;
            }
        }
        return YAML;
    }
}
