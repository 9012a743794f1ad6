defmodule T.MixProject do
  use Mix.Project
end
