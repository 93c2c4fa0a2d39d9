package io.dta.config;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The embedded demo configuration ({@value #RESOURCE}), used when the appliance is started without a file: one
 * collector with a Key-Write store, a counter store, a postcard store, two lists (one in the reference layout)
 * and one sketch of each type.
 */
public final class ConfigDefaults
{
    /**
     * Class-path resource holding the demo configuration.
     */
    public static final String RESOURCE = "default-translator.yaml";

    private ConfigDefaults()
    {
    }

    /**
     * The demo configuration's YAML text.
     *
     * @return the document.
     */
    public static String yaml()
    {
        try (InputStream in = ConfigDefaults.class.getClassLoader().getResourceAsStream(RESOURCE))
        {
            if (null == in)
            {
                throw new IllegalStateException("missing class-path resource " + RESOURCE);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /**
     * Load and validate the demo configuration.
     *
     * @return the configuration.
     */
    public static ApplianceConfig load()
    {
        return ConfigLoader.load(yaml(), ConfigFormat.YAML);
    }
}
