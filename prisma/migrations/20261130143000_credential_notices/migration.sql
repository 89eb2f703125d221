-- Every change to an API token or an agent is announced on the agentfold_credentials channel, so
-- that web processes can keep tokens and the agents they address between requests
-- (src/server/auth/credential-cache.ts) and drop them as soon as anything changes: a revocation,
-- a deploy, a setting, a deletion, cascades from a team or a version included. Rules, not
-- triggers, since a rule's NOTIFY needs no function body. A NOTIFY rule cannot be conditional, so
-- any UPDATE statement announces, even one that changes nothing (a token's last use, at most once
-- a minute per token and process). A new token or agent needs no notice: nothing unknown is kept.
CREATE RULE "ApiToken_updated_notify" AS ON UPDATE TO "ApiToken" DO ALSO NOTIFY agentfold_credentials;
CREATE RULE "ApiToken_deleted_notify" AS ON DELETE TO "ApiToken" DO ALSO NOTIFY agentfold_credentials;
CREATE RULE "Agent_updated_notify" AS ON UPDATE TO "Agent" DO ALSO NOTIFY agentfold_credentials;
CREATE RULE "Agent_deleted_notify" AS ON DELETE TO "Agent" DO ALSO NOTIFY agentfold_credentials;
