package io.drover.model.lrp;

/** The three things an update may change (as in Diego); {@code null} leaves a field as it is. */
public record DesiredLrpUpdate(Integer instances, String routes, String annotation) {
}
