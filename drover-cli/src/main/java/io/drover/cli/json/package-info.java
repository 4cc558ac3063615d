/**
 * The CLI's own JSON: a small tree, a strict parser and a compact writer. Not Jackson: building a Jackson mapper
 * costs a short-lived command about 200 ms of its start (hundreds of classes and their set-up), more than the rest of
 * a {@code drover status}; the receptor's JSON needs none of what it offers beyond a tree.
 */
package io.drover.cli.json;
