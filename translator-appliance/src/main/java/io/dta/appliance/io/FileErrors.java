package io.dta.appliance.io;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;

/**
 * Says what went wrong with a file in words an operator reads: the message of a {@link FileSystemException} is often
 * only the path (a {@link NoSuchFileException} under {@code /proc}, say), so "cannot create X: X" told nothing.
 */
public final class FileErrors
{
    private FileErrors()
    {
    }

    /**
     * @param ex why a file could not be created, read or locked.
     * @return the file concerned (when the exception names one) and the reason, or the exception's message.
     */
    public static String reason(final IOException ex)
    {
        if (ex instanceof final FileSystemException f)
        {
            final String kind = switch (f)
            {
                case final NoSuchFileException ignored -> "no such file or directory";
                case final AccessDeniedException ignored -> "permission denied";
                // Creating a file or its directories: the path named exists, and not as the directory needed.
                case final FileAlreadyExistsException ignored -> "exists and is not a directory";
                case final NotDirectoryException ignored -> "not a directory";
                default -> ex.getClass().getSimpleName();
            };
            return (null == f.getFile() ? "" : f.getFile() + ": ") + (null == f.getReason() ? kind : f.getReason());
        }
        return String.valueOf(ex.getMessage());
    }

    /**
     * The reason alone for a message that names the file already: "cannot write FILE: no such file or directory",
     * not "cannot write FILE: java.nio.file.NoSuchFileException: FILE" nor "FILE: FILE: ...".
     *
     * @param file the file the message names.
     * @param ex   why it could not be created, written or closed.
     * @return the reason in words (the other file too when the exception is about another one).
     */
    public static String reason(final Path file, final IOException ex)
    {
        if (ex instanceof final FileSystemException f)
        {
            final String named = f.getFile();
            final String reason = reason(ex);
            return null != named && null != file && named.equals(file.toString()) && null == f.getOtherFile() ?
                words(reason.substring(named.length() + 2)) : words(reason);
        }
        return null == ex.getMessage() ? ex.getClass().getSimpleName() : words(ex.getMessage());
    }

    /**
     * @param file the file that could not be written (null: "the output").
     * @param ex   why.
     * @return {@code cannot write FILE: reason}, in words.
     */
    public static String cannotWrite(final Path file, final IOException ex)
    {
        return "cannot write " + (null == file ? "the output" : file) + ": " + reason(file, ex);
    }

    // The operating system's "No space left on device" reads as the middle of a sentence after "cannot write F: ".
    private static String words(final String reason)
    {
        return reason.length() > 1 && Character.isUpperCase(reason.charAt(0)) &&
            Character.isLowerCase(reason.charAt(1)) ? Character.toLowerCase(reason.charAt(0)) + reason.substring(1) :
            reason;
    }
}
