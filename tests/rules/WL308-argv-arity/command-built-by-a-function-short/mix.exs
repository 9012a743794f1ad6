defmodule Q.MixProject do
  use Mix.Project
  def project, do: [app: :q, deps: [{:redix, "~> 1.0"}]]
end
