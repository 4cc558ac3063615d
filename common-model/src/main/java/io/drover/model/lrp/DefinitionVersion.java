package io.drover.model.lrp;

/** One definition version of one desired LRP (SPEC 14): what an instance of that version runs. */
public record DefinitionVersion(String processGuid, int version) {
}
