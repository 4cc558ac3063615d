/** The web dashboard at {@code /ui}: server-rendered pages over the read model, kept live by the event stream. */
package io.drover.receptor.ui;
