-- An adviser's consent to a partner application (an authorization code) is a change of its own: audited
-- like the tokens it is exchanged for (the code and its PKCE challenge only as set).
SELECT actiondesk_audit_table('oauth_codes', 'oauth_code', 'code_hash,code_challenge', 'used_at,family_revoked_at');
