-- A deployment's success proves its version stable only when an instance ran it healthy (SPEC 14, docs/deployments.md):
-- a deployment of an LRP with no instance succeeds at once and proves nothing, and an automatic revert must not go
-- back to such a version (the truth checker found a revert that went back to a broken one and crash-looped for its
-- whole deadline). Successes recorded before this column existed are taken as proven.
ALTER TABLE deployments ADD COLUMN proven boolean NOT NULL DEFAULT false;
UPDATE deployments SET proven = true WHERE state = 'SUCCESSFUL';
