defmodule Q.Script do
  alias Q.Client

  def compile(name) do
    script = Path.join(dir(), "#{name}.lua") |> File.read!()
    sha = :crypto.hash(:sha, script) |> Base.encode16(case: :lower)
    {script, sha}
  end

  def eval({script, sha}, arguments) do
    case Client.evalsha_command([sha | arguments]) |> Client.query() do
      {:error, %Redix.Error{message: "NOSCRIPT" <> _}} ->
        Client.eval_command([script | arguments]) |> Client.query()

      other ->
        other
    end
  end

  defp dir, do: :code.priv_dir(:q) |> Path.join("scripts")
end
