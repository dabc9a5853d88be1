import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { errorMessage } from '../../lib/api';
import { useAuth } from '../../lib/auth';
import { FormMessage } from '../../ui/form-message';
import { Spinner } from '../../ui/spinner';
import { createDemoUser, signIn } from './auth.api';

async function startDemo(): Promise<string> {
  const { email, password } = await createDemoUser();
  return (await signIn(email, password)).token;
}

/**
 * Demo servers (DEMO_MODE=1) create a throw-away demo user for every visitor and sign it in
 * (spec 000 §6). A query runs the creation once per page however often this renders.
 */
export function DemoSignIn() {
  const auth = useAuth();
  const navigate = useNavigate();
  const demo = useQuery({ queryKey: ['demo-user'], queryFn: startDemo, retry: false, staleTime: Infinity, gcTime: 0 });
  const token = demo.data;
  const { login } = auth;

  useEffect(() => {
    if (!token) return;
    void login(token).then(() => navigate('/', { replace: true }));
  }, [token, login, navigate]);

  if (demo.isError) return <FormMessage tone="error">{errorMessage(demo.error, 'Login failed')}</FormMessage>;
  return (
    <div className="demo-starting" role="status">
      <Spinner size={16} />
      Preparing your demo account…
    </div>
  );
}
