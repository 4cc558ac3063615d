package io.drover.model;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import javax.sql.DataSource;
import org.springframework.beans.factory.config.BeanPostProcessor;

/**
 * Counts the statements the current thread prepares on the application's real connections, so a test can pin how many
 * round trips an operation makes (the database underneath is the real PostgreSQL; nothing is stubbed).
 */
public final class StatementCounter implements BeanPostProcessor {

    private static final ThreadLocal<int[]> PREPARED = ThreadLocal.withInitial(() -> new int[1]);
    private static final ThreadLocal<Hook> BEFORE = new ThreadLocal<>();

    /**
     * Runs {@code action} once, on this thread, just before it next prepares a statement whose SQL contains
     * {@code sql}: a test's way to commit something from another connection at an exact point of a transaction.
     */
    public static void beforeNext(String sql, Runnable action) {
        BEFORE.set(new Hook(sql, action));
    }

    private record Hook(String sql, Runnable action) {
    }

    /** Starts counting this thread's statements from zero. */
    public static void reset() {
        PREPARED.get()[0] = 0;
    }

    /** Statements this thread prepared since {@link #reset()}. */
    public static int prepared() {
        return PREPARED.get()[0];
    }

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) {
        if (bean instanceof DataSource dataSource && !(Proxy.isProxyClass(bean.getClass()))) {
            return proxy(DataSource.class, dataSource, (target, method, args) -> {
                Object result = invoke(target, method, args);
                return result instanceof Connection c ? proxy(Connection.class, c, this::countPrepare) : result;
            });
        }
        return bean;
    }

    private Object countPrepare(Object target, java.lang.reflect.Method method, Object[] args) throws Throwable {
        if (method.getName().startsWith("prepare")) {
            PREPARED.get()[0]++;
            Hook hook = BEFORE.get();
            if (hook != null && args != null && args.length > 0 && String.valueOf(args[0]).contains(hook.sql())) {
                BEFORE.remove();
                hook.action().run();
            }
        }
        return invoke(target, method, args);
    }

    private static Object invoke(Object target, java.lang.reflect.Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    @SuppressWarnings("unchecked")
    private static <T> T proxy(Class<T> type, T target, Handler handler) {
        return (T) Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] { type },
                (proxy, method, args) -> handler.handle(target, method, args));
    }

    @FunctionalInterface
    private interface Handler {
        Object handle(Object target, java.lang.reflect.Method method, Object[] args) throws Throwable;
    }
}
