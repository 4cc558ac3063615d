/**
 * The auction leader's allocation view: what each cell carries, kept in memory between rounds and reconciled with the
 * database every few seconds instead of re-aggregated on every round.
 */
package io.drover.auctioneer.allocation;
